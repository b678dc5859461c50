package dev.cairn.localstack;

import dev.cairn.localstack.ServerTables.Column;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The columns the API server prints for the built-in kinds the mock APIs serve (its internal
 * printers), so {@code kubectl get ingress} shows CLASS, HOSTS and ADDRESS as on a cluster instead
 * of only NAME and AGE: Ingress, Service, Node, Namespace and EndpointSlice. Cells follow the API
 * server's printers ({@code pkg/printers/internalversion/printers.go}), with {@code <none>} for an
 * empty value.
 */
final class BuiltinTables {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String NONE = "<none>";

  /** How one kind is printed. */
  private record Printer(List<Column> columns, Function<JsonNode, List<String>> cells) {}

  private static final Map<String, Printer> PRINTERS =
      Map.of(
          "networking.k8s.io/v1/ingresses",
          new Printer(columns("Class", "Hosts", "Address", "Ports"), BuiltinTables::ingress),
          "v1/services",
          new Printer(
              columns("Type", "Cluster-IP", "External-IP", "Port(s)"), BuiltinTables::service),
          "v1/nodes",
          new Printer(columns("Status", "Roles"), BuiltinTables::node),
          "v1/namespaces",
          new Printer(columns("Status"), BuiltinTables::namespace),
          "discovery.k8s.io/v1/endpointslices",
          new Printer(columns("AddressType", "Ports", "Endpoints"), BuiltinTables::endpointSlice));

  private BuiltinTables() {}

  /**
   * A Table of built-in objects, or empty when the kind has no printer here.
   *
   * @param groupVersion {@code v1} for the core group, else {@code <group>/<version>}
   * @param plural the resource's plural name
   */
  static Optional<ObjectNode> table(
      String groupVersion,
      String plural,
      List<JsonNode> objects,
      String resourceVersion,
      ServerTables.Include include,
      Instant now) {
    Printer printer = PRINTERS.get(groupVersion + "/" + plural);
    if (printer == null) {
      return Optional.empty();
    }
    ObjectNode table = ServerTables.table(printer.columns(), resourceVersion);
    ArrayNode rows = table.putArray("rows");
    for (JsonNode object : objects) {
      ArrayNode cells = NODES.arrayNode();
      cells.add(object.path("metadata").path("name").asString(""));
      printer.cells().apply(object).forEach(cells::add);
      String age =
          ServerTables.since(object.path("metadata").path("creationTimestamp").asString(""), now);
      cells.add(age == null ? "<unknown>" : age);
      rows.add(ServerTables.row(cells, object, include));
    }
    return Optional.of(table);
  }

  /** Name, the given string columns, then Age. */
  private static List<Column> columns(String... names) {
    List<Column> columns = new ArrayList<>();
    columns.add(
        new Column("Name", "string", "name", "Name must be unique within a namespace.", 0, null));
    for (String name : names) {
      columns.add(new Column(name, "string", "", name, 0, null));
    }
    columns.add(
        new Column(
            "Age",
            "string",
            "",
            "CreationTimestamp is a timestamp representing the server time when this object was"
                + " created.",
            0,
            null));
    return columns;
  }

  private static List<String> ingress(JsonNode o) {
    JsonNode spec = o.path("spec");
    List<String> hosts = new ArrayList<>();
    for (JsonNode rule : spec.path("rules")) {
      String host = rule.path("host").asString("");
      hosts.add(host.isEmpty() ? "*" : host);
    }
    return List.of(
        orNone(spec.path("ingressClassName").asString("")),
        hosts.isEmpty() ? "*" : String.join(",", hosts),
        loadBalancer(o),
        spec.path("tls").isArray() && !spec.path("tls").isEmpty() ? "80, 443" : "80");
  }

  private static List<String> service(JsonNode o) {
    JsonNode spec = o.path("spec");
    String type = spec.path("type").asString("ClusterIP");
    String external = NONE;
    if ("LoadBalancer".equals(type)) {
      String lb = loadBalancer(o);
      external = NONE.equals(lb) ? "<pending>" : lb;
    } else if ("ExternalName".equals(type)) {
      external = spec.path("externalName").asString(NONE);
    }
    List<String> ports = new ArrayList<>();
    for (JsonNode p : spec.path("ports")) {
      String node = p.path("nodePort").isNumber() ? ":" + p.path("nodePort").asInt() : "";
      ports.add(p.path("port").asInt() + node + "/" + p.path("protocol").asString("TCP"));
    }
    return List.of(
        type,
        orNone(spec.path("clusterIP").asString("")),
        external,
        ports.isEmpty() ? NONE : String.join(",", ports));
  }

  private static List<String> node(JsonNode o) {
    String status = "Unknown";
    for (JsonNode c : o.path("status").path("conditions")) {
      if ("Ready".equals(c.path("type").asString(""))) {
        status = "True".equals(c.path("status").asString("")) ? "Ready" : "NotReady";
      }
    }
    if (o.path("spec").path("unschedulable").asBoolean(false)) {
      status += ",SchedulingDisabled";
    }
    List<String> roles = new ArrayList<>();
    String prefix = "node-role.kubernetes.io/";
    for (Map.Entry<String, JsonNode> label : o.path("metadata").path("labels").properties()) {
      if (label.getKey().startsWith(prefix) && label.getKey().length() > prefix.length()) {
        roles.add(label.getKey().substring(prefix.length()));
      }
    }
    roles.sort(null);
    return List.of(status, roles.isEmpty() ? NONE : String.join(",", roles));
  }

  /**
   * A namespace's phase. The mock has no namespace lifecycle: one created without a phase (the API
   * server would set {@code Active}) is active.
   */
  private static List<String> namespace(JsonNode o) {
    String phase = o.path("status").path("phase").asString("");
    return List.of(phase.isEmpty() ? "Active" : phase);
  }

  private static List<String> endpointSlice(JsonNode o) {
    List<String> ports = new ArrayList<>();
    for (JsonNode p : o.path("ports")) {
      ports.add(p.path("port").isNumber() ? String.valueOf(p.path("port").asInt()) : "<unset>");
    }
    List<String> addresses = new ArrayList<>();
    for (JsonNode e : o.path("endpoints")) {
      for (JsonNode a : e.path("addresses")) {
        addresses.add(a.asString(""));
      }
    }
    String endpoints;
    if (addresses.isEmpty()) {
      endpoints = "<unset>";
    } else if (addresses.size() <= 3) {
      endpoints = String.join(",", addresses);
    } else {
      endpoints =
          String.join(",", addresses.subList(0, 3)) + " + " + (addresses.size() - 3) + " more...";
    }
    return List.of(
        o.path("addressType").asString(""),
        ports.isEmpty() ? "<unset>" : String.join(",", ports),
        endpoints);
  }

  /** The IPs and host names of {@code status.loadBalancer.ingress}, or {@code <none>}. */
  private static String loadBalancer(JsonNode o) {
    List<String> addresses = new ArrayList<>();
    for (JsonNode i : o.path("status").path("loadBalancer").path("ingress")) {
      String ip = i.path("ip").asString("");
      addresses.add(ip.isEmpty() ? i.path("hostname").asString("") : ip);
    }
    addresses.removeIf(String::isEmpty);
    return addresses.isEmpty() ? NONE : String.join(",", addresses);
  }

  private static String orNone(String value) {
    return value.isEmpty() ? NONE : value;
  }
}
