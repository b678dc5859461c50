package dev.cairn.localstack;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Server-side printing, as the API server does it for {@code kubectl get}: a {@code meta.k8s.io/v1}
 * {@code Table} with the columns of a custom resource's {@code additionalPrinterColumns} (or Age
 * when it declares none), and the columns of core Events. kubectl asks for a Table and prints its
 * columns; given a plain list it can only print names and ages.
 *
 * <p>The cells follow the API server: {@code string} columns print their JSONPath result (arrays
 * and objects as compact JSON), {@code integer}, {@code number} and {@code boolean} columns their
 * value, {@code date} columns the time since the value ({@code 5m30s}, kubectl's {@code
 * HumanDuration}); a path that finds nothing gives an empty cell. JSONPath is supported in the form
 * the CRDs use: dotted fields with optional {@code [n]} indexes.
 */
final class ServerTables {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ServerTables() {}

  /** A column of a Table and where its value comes from. */
  record Column(
      String name, String type, String format, String description, int priority, String jsonPath) {}

  /** What each row carries besides its cells ({@code includeObject}). */
  enum Include {
    NONE,
    METADATA,
    OBJECT;

    /** The request parameter's value; absent or unknown means METADATA, the server's default. */
    static Include of(String parameter) {
      if ("None".equals(parameter)) {
        return NONE;
      }
      return "Object".equals(parameter) ? OBJECT : METADATA;
    }
  }

  /**
   * The columns of one version of a CustomResourceDefinition: Name, then its printer columns, or
   * Age when it has none.
   */
  static Optional<List<Column>> crdColumns(JsonNode crd, String version) {
    for (JsonNode v : crd.path("spec").path("versions")) {
      if (!version.equals(v.path("name").asString(""))) {
        continue;
      }
      List<Column> columns = new ArrayList<>();
      columns.add(
          new Column(
              "Name",
              "string",
              "name",
              "Name must be unique within a namespace.",
              0,
              ".metadata.name"));
      JsonNode printer = v.path("additionalPrinterColumns");
      if (!printer.isArray() || printer.isEmpty()) {
        columns.add(
            new Column(
                "Age",
                "date",
                "",
                "CreationTimestamp is a timestamp representing the server time when this object"
                    + " was created.",
                0,
                ".metadata.creationTimestamp"));
      } else {
        for (JsonNode c : printer) {
          String path = c.path("jsonPath").asString("");
          String description = c.path("description").asString("");
          columns.add(
              new Column(
                  c.path("name").asString(""),
                  c.path("type").asString("string"),
                  c.path("format").asString(""),
                  description.isEmpty()
                      ? "Custom resource definition column (in JSONPath format): " + path
                      : description,
                  c.path("priority").asInt(0),
                  path));
        }
      }
      return Optional.of(columns);
    }
    return Optional.empty();
  }

  /** A Table of custom resources with {@code columns}. */
  static ObjectNode customResources(
      List<Column> columns,
      List<JsonNode> objects,
      String resourceVersion,
      Include include,
      Instant now) {
    ObjectNode table = table(columns, resourceVersion);
    ArrayNode rows = table.putArray("rows");
    for (JsonNode object : objects) {
      ArrayNode cells = NODES.arrayNode();
      for (Column column : columns) {
        cells.add(cell(column, object, now));
      }
      rows.add(row(cells, object, include));
    }
    return table;
  }

  /** The columns kubectl shows for core Events (the API server's Event printer). */
  static final List<Column> EVENT_COLUMNS =
      List.of(
          new Column(
              "Last Seen",
              "string",
              "",
              "The time at which the most recent occurrence of" + " this event was recorded.",
              0,
              null),
          new Column("Type", "string", "", "Type of this event (Normal, Warning).", 0, null),
          new Column(
              "Reason",
              "string",
              "",
              "The reason for the transition into the object's" + " current status.",
              0,
              null),
          new Column("Object", "string", "", "The object that this event is about.", 0, null),
          new Column(
              "Subobject", "string", "", "The field of the object this event is about.", 1, null),
          new Column("Source", "string", "", "The component reporting this event.", 1, null),
          new Column(
              "Message",
              "string",
              "",
              "A human-readable description of the status of" + " this operation.",
              0,
              null),
          new Column(
              "First Seen",
              "string",
              "",
              "The time at which the event was first" + " recorded.",
              1,
              null),
          new Column(
              "Count", "string", "", "The number of times this event has occurred.", 1, null),
          new Column("Name", "string", "name", "Name must be unique within a namespace.", 1, null));

  /** A Table of core {@code v1} Events, each row as the API server's Event printer makes it. */
  static ObjectNode events(
      List<JsonNode> events, String resourceVersion, Include include, Instant now) {
    ObjectNode table = table(EVENT_COLUMNS, resourceVersion);
    ArrayNode rows = table.putArray("rows");
    for (JsonNode e : events) {
      String first = since(e.path("firstTimestamp").asString(""), now);
      if (first == null) {
        first = since(e.path("eventTime").asString(""), now);
      }
      if (first == null) {
        first = "<unknown>";
      }
      String last = since(e.path("lastTimestamp").asString(""), now);
      if (last == null) {
        last = first;
      }
      long count = e.path("count").asLong(0);
      JsonNode series = e.path("series");
      if (series.isObject()) {
        String observed = since(series.path("lastObservedTime").asString(""), now);
        last = observed == null ? "<unknown>" : observed;
        count = series.path("count").asLong(0);
      } else if (count == 0) {
        count = 1;
      }
      JsonNode involved = e.path("involvedObject");
      String kind = involved.path("kind").asString("").toLowerCase(Locale.ROOT);
      String name = involved.path("name").asString("");
      String component =
          firstNonEmpty(
              e.path("source").path("component").asString(""),
              e.path("reportingComponent").asString(""));
      String instance =
          firstNonEmpty(
              e.path("source").path("host").asString(""), e.path("reportingInstance").asString(""));
      ArrayNode cells = NODES.arrayNode();
      cells.add(last);
      cells.add(e.path("type").asString(""));
      cells.add(e.path("reason").asString(""));
      cells.add(name.isEmpty() ? kind : kind + "/" + name);
      cells.add(involved.path("fieldPath").asString(""));
      cells.add(instance.isEmpty() ? component : component + ", " + instance);
      cells.add(e.path("message").asString("").strip());
      cells.add(first);
      cells.add(count);
      cells.add(e.path("metadata").path("name").asString(""));
      rows.add(row(cells, e, include));
    }
    return table;
  }

  static ObjectNode table(List<Column> columns, String resourceVersion) {
    ObjectNode table = NODES.objectNode();
    table.put("kind", "Table");
    table.put("apiVersion", "meta.k8s.io/v1");
    table.putObject("metadata").put("resourceVersion", resourceVersion);
    ArrayNode definitions = table.putArray("columnDefinitions");
    for (Column c : columns) {
      ObjectNode d = definitions.addObject();
      d.put("name", c.name());
      d.put("type", c.type());
      d.put("format", c.format());
      d.put("description", c.description());
      d.put("priority", c.priority());
    }
    return table;
  }

  static ObjectNode row(ArrayNode cells, JsonNode object, Include include) {
    ObjectNode row = NODES.objectNode();
    row.set("cells", cells);
    switch (include) {
      case OBJECT -> row.set("object", object);
      case METADATA -> {
        ObjectNode partial = row.putObject("object");
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", "meta.k8s.io/v1");
        partial.set("metadata", object.path("metadata"));
      }
      case NONE -> {}
    }
    return row;
  }

  private static JsonNode cell(Column column, JsonNode object, Instant now) {
    JsonNode value = find(object, column.jsonPath());
    if (value == null || value.isNull() || value.isMissingNode()) {
      return NODES.nullNode();
    }
    return switch (column.type()) {
      case "integer" -> value.isNumber() ? NODES.numberNode(value.asLong()) : NODES.nullNode();
      case "number" -> value.isNumber() ? NODES.numberNode(value.asDouble()) : NODES.nullNode();
      case "boolean" -> value.isBoolean() ? value : NODES.nullNode();
      case "date" -> {
        if (!value.isString()) {
          yield NODES.nullNode();
        }
        String since = since(value.asString(), now);
        yield NODES.stringNode(since == null ? "<invalid>" : since);
      }
      default ->
          NODES.stringNode(
              value.isString()
                  ? value.asString()
                  : value.isContainer() ? value.toString() : value.asString());
    };
  }

  /**
   * The node a JSONPath of dotted fields with optional {@code [n]} indexes finds ({@code
   * .spec.hostnames[0]}, with or without the braces kubectl also accepts); {@code null} when it
   * finds nothing or the path has another form.
   */
  static JsonNode find(JsonNode object, String path) {
    if (path == null) {
      return null;
    }
    String p = path.strip();
    if (p.startsWith("{") && p.endsWith("}")) {
      p = p.substring(1, p.length() - 1);
    }
    if (!p.startsWith(".")) {
      return null;
    }
    JsonNode node = object;
    for (String part : p.substring(1).split("\\.", -1)) {
      String field = part;
      int index = -1;
      int bracket = part.indexOf('[');
      if (bracket >= 0) {
        if (!part.endsWith("]")) {
          return null;
        }
        try {
          index = Integer.parseInt(part.substring(bracket + 1, part.length() - 1));
        } catch (NumberFormatException e) {
          return null;
        }
        field = part.substring(0, bracket);
      }
      if (field.isEmpty() || node == null || !node.isObject()) {
        return null;
      }
      node = node.get(field);
      if (index >= 0) {
        if (node == null || !node.isArray() || index >= node.size()) {
          return null;
        }
        node = node.get(index);
      }
    }
    return node;
  }

  /**
   * kubectl's age of a timestamp at {@code now}, or {@code null} when it is empty or unreadable.
   */
  static String since(String timestamp, Instant now) {
    if (timestamp == null || timestamp.isBlank()) {
      return null;
    }
    try {
      return humanDuration(Duration.between(Instant.parse(timestamp.strip()), now));
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Kubernetes' {@code duration.HumanDuration}: {@code 45s}, {@code 5m30s}, {@code 3h10m}, ... */
  static String humanDuration(Duration d) {
    long seconds = d.getSeconds();
    if (seconds < -1) {
      return "<invalid>";
    } else if (seconds < 0) {
      return "0s";
    } else if (seconds < 60 * 2) {
      return seconds + "s";
    }
    long minutes = d.toMinutes();
    if (minutes < 10) {
      long s = seconds % 60;
      return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
    } else if (minutes < 60 * 3) {
      return minutes + "m";
    }
    long hours = d.toHours();
    if (hours < 8) {
      long m = minutes % 60;
      return m == 0 ? hours + "h" : hours + "h" + m + "m";
    } else if (hours < 48) {
      return hours + "h";
    } else if (hours < 24 * 8) {
      long h = hours % 24;
      return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
    } else if (hours < 24 * 365 * 2) {
      return hours / 24 + "d";
    } else if (hours < 24 * 365 * 8) {
      long dy = (hours / 24) % 365;
      return dy == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + dy + "d";
    }
    return hours / 24 / 365 + "y";
  }

  private static String firstNonEmpty(String a, String b) {
    return a.isEmpty() ? b : a;
  }
}
