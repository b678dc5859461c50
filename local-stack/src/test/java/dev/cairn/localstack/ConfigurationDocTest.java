package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.dnsresponder.config.ResponderProperties;
import dev.cairn.healthprober.config.ProberProperties;
import dev.cairn.recordwriter.config.WriterProperties;
import dev.cairn.strategyengine.config.StrategyEngineProperties;
import dev.cairn.topologywatcher.config.WatcherProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * docs/configuration.md is every service's settings, no more and no fewer: each property a service
 * binds has a row with its canonical environment variable and its default, each row names a
 * property that exists, and every {@code watcher.}, {@code prober.}, {@code engine.}, {@code
 * writer.} or {@code responder.} name written anywhere in the docs is a setting (or one of the
 * metrics that share those prefixes). The properties are read from the services' own
 * {@code @ConfigurationProperties} records, their defaults from the metadata Spring Boot's
 * configuration processor writes at build time.
 */
class ConfigurationDocTest {

  private static final Path DOCS = Path.of("..", "docs");
  private static final Path CONFIGURATION = DOCS.resolve("configuration.md");

  /** The services' configuration records, by prefix, in the order the page lists them. */
  private static final Map<String, Class<? extends Record>> SERVICES = new LinkedHashMap<>();

  static {
    SERVICES.put("watcher", WatcherProperties.class);
    SERVICES.put("prober", ProberProperties.class);
    SERVICES.put("engine", StrategyEngineProperties.class);
    SERVICES.put("writer", WriterProperties.class);
    SERVICES.put("responder", ResponderProperties.class);
  }

  /** The services that bind {@link TopicSettings} under {@code <prefix>.topics}. */
  private static final List<String> KAFKA_SERVICES =
      List.of("watcher", "prober", "engine", "writer");

  /**
   * Names with a Cairn prefix the docs may write that are not settings: the page says that the
   * responder has no topic settings.
   */
  /**
   * Named in the docs but not settings: a prefix the responder does not have, and the misspelt
   * example of an unknown setting that stops the start.
   */
  private static final Set<String> NOT_SETTINGS =
      Set.of("responder.topics.*", "writer.grace-perod");

  private static final Pattern ROW =
      Pattern.compile("^\\| `([^`]+)` \\| ([^|]*) \\| ([^|]*) \\| (.*) \\|$");
  private static final Pattern SECTION = Pattern.compile("^##+ .*\\(`(\\w+)\\.\\*`\\)");
  private static final Pattern CODE = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern SEGMENT = Pattern.compile("([a-z0-9-]+|\\*)(\\[[a-z0-9]*])?");

  /** A row of one of the page's setting tables. */
  record Row(
      String service, String property, String environment, String defaults, String meaning) {}

  @Test
  void everyServiceRecordIsListedHere() {
    for (var entry : SERVICES.entrySet()) {
      assertThat(entry.getValue().getAnnotation(ConfigurationProperties.class).prefix())
          .as(entry.getValue().getSimpleName())
          .isEqualTo(entry.getKey());
    }
  }

  @Test
  void everyPropertyHasARow() throws IOException {
    Map<String, Row> rows = rowsByProperty();
    Set<String> groups = metadata("groups").keySet();
    assertThat(groups).as("configuration metadata groups").contains("prober.circuit-breaker");
    List<String> missing = new ArrayList<>();
    SERVICES.forEach(
        (prefix, type) -> missing.addAll(undocumented(prefix, type, rows.keySet(), groups)));
    for (String service : KAFKA_SERVICES) {
      assertThat(rows).as("the %s.topics.* row", service).containsKey(service + ".topics.*");
    }
    missing.addAll(undocumented("<service>.topics", TopicSettings.class, rows.keySet(), Set.of()));
    assertThat(missing).as("settings without a row in docs/configuration.md").isEmpty();
  }

  @Test
  void everyRowIsAProperty() throws IOException {
    List<String> unknown = new ArrayList<>();
    for (Row row : rows()) {
      if (!resolves(row.property())) {
        unknown.add(row.property() + " (section " + row.service() + ")");
      }
    }
    assertThat(unknown).as("rows of docs/configuration.md that name no setting").isEmpty();
  }

  @Test
  void everyRowGivesTheCanonicalEnvironmentVariable() throws IOException {
    List<String> wrong = new ArrayList<>();
    for (Row row : rows()) {
      if (row.property().startsWith("<service>.")) {
        for (String service : KAFKA_SERVICES) {
          String expected = environment(row.property().replace("<service>", service));
          if (!row.environment().contains("`" + expected + "`")
              && !row.environment().contains("`" + service.toUpperCase(Locale.ROOT) + "_…`")) {
            wrong.add(row.property() + " for " + service + ": " + expected);
          }
        }
        continue;
      }
      String expected = environment(row.property());
      Matcher first = CODE.matcher(row.environment());
      String given = first.find() ? first.group(1) : "";
      boolean matches =
          given.equals(expected)
              || (given.startsWith(expected) && given.charAt(expected.length()) == '_');
      if (!matches) {
        wrong.add(row.property() + ": expected " + expected + ", the row gives " + given);
      }
    }
    assertThat(wrong).as("environment variables not in Spring's canonical form").isEmpty();
  }

  @Test
  void everyDefaultInTheMetadataIsTheRowsDefault() throws IOException {
    Map<String, Row> rows = rowsByProperty();
    Map<String, JsonNode> metadata = metadata("properties");
    assertThat(metadata.keySet())
        .as("configuration metadata of every service on the classpath")
        .anySatisfy(name -> assertThat(name).startsWith("watcher."))
        .anySatisfy(name -> assertThat(name).startsWith("responder."));
    List<String> wrong = new ArrayList<>();
    int compared = 0;
    for (var entry : metadata.entrySet()) {
      JsonNode value = entry.getValue().get("defaultValue");
      Row row = rows.get(entry.getKey());
      if (value == null || row == null) {
        continue;
      }
      String expected = text(value);
      if (expected.isEmpty()) {
        continue;
      }
      compared++;
      boolean same =
          row.defaults().contains("`" + expected + "`")
              || (value.isNumber() && row.defaults().contains("`" + expected + ".0`"));
      if (!same) {
        wrong.add(
            entry.getKey()
                + ": the code's default is "
                + expected
                + ", the row says "
                + row.defaults());
      }
    }
    assertThat(compared).as("defaults compared").isGreaterThan(50);
    assertThat(wrong).as("defaults that differ from the code's").isEmpty();
  }

  @Test
  void everySettingNamedInTheDocsExists() throws IOException {
    Set<String> metrics = metricNames();
    List<String> unknown = new ArrayList<>();
    List<Path> pages = new ArrayList<>();
    try (Stream<Path> files = Files.walk(DOCS)) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    try (Stream<Path> modules = Files.list(Path.of(".."))) {
      modules
          .map(m -> m.resolve("README.md"))
          .filter(Files::isRegularFile)
          .sorted()
          .forEach(pages::add);
    }
    int checked = 0;
    for (Path page : pages) {
      Matcher code = CODE.matcher(Files.readString(page));
      while (code.find()) {
        for (String name : settingNames(code.group(1))) {
          checked++;
          if (!resolves(name) && !metrics.contains(name) && !NOT_SETTINGS.contains(name)) {
            unknown.add(DOCS.getParent().relativize(page) + ": " + name);
          }
        }
      }
    }
    assertThat(checked).as("setting names found in the docs").isGreaterThan(200);
    assertThat(unknown).as("names in the docs that are neither a setting nor a metric").isEmpty();
  }

  /**
   * The Cairn setting names in one code span: {@code --engine.stream-threads=2}, {@code
   * writer.embedded-ingress.enabled: false}, {@code responder.listen-address:responder.port}.
   */
  static List<String> settingNames(String code) {
    List<String> names = new ArrayList<>();
    String first = code.strip().split("\\s+")[0]; // "prober.query-attempts must be between ..."
    for (String part : first.split("[:,]+")) {
      String assigned = part.split("=", 2)[0]; // engine.state-store-type=in-memory
      String name = assigned.startsWith("--") ? assigned.substring(2) : assigned;
      int dot = name.indexOf('.');
      if (dot > 0 && SERVICES.containsKey(name.substring(0, dot)) && !name.endsWith(".")) {
        names.add(name);
      }
    }
    return names;
  }

  /** Whether {@code name} (with {@code [i]}-style indexes and a final {@code *}) is a setting. */
  static boolean resolves(String name) {
    String rest;
    Type type;
    if (name.startsWith("<service>.")) {
      rest = name.substring("<service>.".length());
      type = SERVICES.get("watcher"); // every Kafka service binds topics the same way
    } else {
      int dot = name.indexOf('.');
      if (dot < 0 || !SERVICES.containsKey(name.substring(0, dot))) {
        return false;
      }
      rest = name.substring(dot + 1);
      type = SERVICES.get(name.substring(0, dot));
    }
    for (String segment : rest.split("\\.")) {
      Matcher m = SEGMENT.matcher(segment);
      if (!m.matches() || !(raw(type) instanceof Class<?> c) || !c.isRecord()) {
        return false;
      }
      if (m.group(1).equals("*")) {
        return m.group(2) == null && segment.equals(rest.substring(rest.lastIndexOf('.') + 1));
      }
      Optional<RecordComponent> component =
          Stream.of(c.getRecordComponents())
              .filter(rc -> kebab(rc.getName()).equals(m.group(1)))
              .findFirst();
      if (component.isEmpty()) {
        return false;
      }
      type = component.get().getGenericType();
      if (m.group(2) != null) {
        Optional<Type> element = element(type);
        if (element.isEmpty()) {
          return false;
        }
        type = element.get();
      }
    }
    return true;
  }

  /**
   * The settings under {@code path} (of record {@code type}) without a row. A record component is
   * covered by its own row or by a wildcard row above it ({@code prober.circuit-breaker.*}); a
   * nested group (a metadata group) by rows for its components; a list of records by its own row
   * or, where the page has rows for its elements ({@code prober.peers[i].geo-tag}), by a row for
   * each field of its element, in turn.
   */
  private static List<String> undocumented(
      String path, Class<?> type, Set<String> rows, Set<String> groups) {
    if (covered(path, rows)) {
      return List.of();
    }
    List<String> missing = new ArrayList<>();
    for (RecordComponent component : type.getRecordComponents()) {
      String name = path + "." + kebab(component.getName());
      Type generic = component.getGenericType();
      if (groups.contains(name)) {
        missing.addAll(undocumented(name, component.getType(), rows, groups));
        continue;
      }
      Optional<Type> element = element(generic);
      if (element.isPresent()
          && raw(element.get()) instanceof Class<?> e
          && e.isRecord()
          && rows.stream()
              .anyMatch(r -> r.startsWith(name + "[i].") || r.startsWith(name + "[j]."))) {
        String index = name.contains("[i]") ? "[j]" : "[i]";
        missing.addAll(undocumented(name + index, e, rows, groups));
      } else if (!rows.contains(name) && !covered(name, rows)) {
        missing.add(name);
      }
    }
    return missing;
  }

  private static boolean covered(String name, Set<String> rows) {
    for (String row : rows) {
      if (row.endsWith(".*") && name.startsWith(row.substring(0, row.length() - 1))) {
        return true;
      }
      if (row.endsWith(".*") && name.equals(row.substring(0, row.length() - 2))) {
        return true;
      }
    }
    return false;
  }

  private static Optional<Type> element(Type type) {
    if (type instanceof ParameterizedType p
        && p.getRawType() instanceof Class<?> raw
        && Collection.class.isAssignableFrom(raw)) {
      return Optional.of(p.getActualTypeArguments()[0]);
    }
    if (type instanceof Class<?> c && c.isArray()) {
      return Optional.of(c.getComponentType());
    }
    return Optional.empty();
  }

  private static Type raw(Type type) {
    return type instanceof ParameterizedType p ? p.getRawType() : type;
  }

  static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }

  /**
   * Spring's canonical environment variable: {@code prober.peers[i].geo-tag} →
   * PROBER_PEERS_0_GEOTAG.
   */
  static String environment(String property) {
    return property
        .replaceAll("\\[[a-z0-9]*]", "_0")
        .replace("-", "")
        .replace('.', '_')
        .toUpperCase(Locale.ROOT);
  }

  private static List<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    String section = null;
    for (String line : Files.readAllLines(CONFIGURATION)) {
      if (line.startsWith("## ") || line.startsWith("### ")) {
        Matcher m = SECTION.matcher(line);
        section =
            m.find() && (SERVICES.containsKey(m.group(1)) || line.contains("<service>.topics"))
                ? m.group(1)
                : line.contains("`<service>.topics.*`") ? "topics" : null;
        continue;
      }
      Matcher row = ROW.matcher(line);
      if (section != null && row.matches()) {
        rows.add(new Row(section, row.group(1), row.group(2), row.group(3), row.group(4)));
      }
    }
    assertThat(rows).as("setting rows in docs/configuration.md").hasSizeGreaterThan(100);
    return rows;
  }

  private static Map<String, Row> rowsByProperty() throws IOException {
    Map<String, Row> rows = new TreeMap<>();
    for (Row row : rows()) {
      assertThat(rows.put(row.property(), row)).as("a second row for %s", row.property()).isNull();
    }
    return rows;
  }

  /**
   * The configuration processor's metadata of the Cairn services ({@code properties} or {@code
   * groups}), by name.
   */
  private static Map<String, JsonNode> metadata(String kind) throws IOException {
    Map<String, JsonNode> properties = new TreeMap<>();
    JsonMapper json = JsonMapper.builder().build();
    for (URL url :
        Collections.list(
            ConfigurationDocTest.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
      try (InputStream in = url.openStream()) {
        for (JsonNode property : json.readTree(in).path(kind)) {
          if (property.path("sourceType").asString("").startsWith("dev.cairn.")) {
            properties.put(property.get("name").asString(), property);
          }
        }
      }
    }
    return properties;
  }

  /**
   * A metadata default as the page writes it: {@code 30s}, {@code true}, {@code 80}, {@code a,b}.
   */
  private static String text(JsonNode value) {
    if (value.isArray()) {
      List<String> items = new ArrayList<>();
      value.forEach(v -> items.add(text(v)));
      return String.join(",", items);
    }
    if (value.isNumber() && value.asDouble() == Math.rint(value.asDouble())) {
      return Long.toString((long) value.asDouble());
    }
    return value.asString();
  }

  /** Metric names with a Cairn prefix written as string literals in the services' main code. */
  private static Set<String> metricNames() throws IOException {
    Pattern literal =
        Pattern.compile("\"((?:" + String.join("|", SERVICES.keySet()) + ")\\.[a-z.]+)\"");
    Set<String> names = new TreeSet<>();
    List<Path> roots;
    try (Stream<Path> modules = Files.list(Path.of(".."))) {
      roots =
          modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).sorted().toList();
    }
    for (Path root : roots) {
      try (Stream<Path> sources = Files.walk(root)) {
        sources
            .filter(p -> p.toString().endsWith(".java"))
            .forEach(
                p -> {
                  try {
                    Matcher m = literal.matcher(Files.readString(p));
                    while (m.find()) {
                      names.add(m.group(1));
                    }
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
      }
    }
    return names;
  }
}
