package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.CairnJson;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ServerTablesTest {

  private static final JsonMapper JSON = CairnJson.kubernetesMapperBuilder().build();
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  private static JsonNode crd(String resource) throws Exception {
    try (InputStream in = ServerTablesTest.class.getClassLoader().getResourceAsStream(resource)) {
      Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
      return JSON.valueToTree(doc);
    }
  }

  private static JsonNode json(String text) {
    return JSON.readTree(text.replace('\'', '"'));
  }

  /** The cases of Kubernetes' own HumanDuration test (apimachinery's duration_test.go). */
  @Test
  void agesReadAsKubectlPrintsThem() {
    assertThat(ServerTables.humanDuration(Duration.ofSeconds(1))).isEqualTo("1s");
    assertThat(ServerTables.humanDuration(Duration.ofSeconds(70))).isEqualTo("70s");
    assertThat(ServerTables.humanDuration(Duration.ofSeconds(190))).isEqualTo("3m10s");
    assertThat(ServerTables.humanDuration(Duration.ofMinutes(5))).isEqualTo("5m");
    assertThat(ServerTables.humanDuration(Duration.ofMinutes(70))).isEqualTo("70m");
    assertThat(ServerTables.humanDuration(Duration.ofMinutes(190))).isEqualTo("3h10m");
    assertThat(ServerTables.humanDuration(Duration.ofHours(47))).isEqualTo("47h");
    assertThat(ServerTables.humanDuration(Duration.ofHours(49))).isEqualTo("2d1h");
    assertThat(ServerTables.humanDuration(Duration.ofHours(8 * 24 + 2))).isEqualTo("8d");
    assertThat(ServerTables.humanDuration(Duration.ofHours(367 * 24))).isEqualTo("367d");
    assertThat(ServerTables.humanDuration(Duration.ofHours(365 * 2 * 24 + 25))).isEqualTo("2y1d");
    assertThat(ServerTables.humanDuration(Duration.ofHours(365 * 8 * 24 + 2))).isEqualTo("8y");
    assertThat(ServerTables.humanDuration(Duration.ofSeconds(-1))).isEqualTo("0s");
    assertThat(ServerTables.humanDuration(Duration.ofSeconds(-2))).isEqualTo("<invalid>");
  }

  @Test
  void findsDottedPathsWithIndexes() {
    JsonNode o = json("{'spec':{'hostnames':['a.example.com','b.example.com'],'n':3}}");

    assertThat(ServerTables.find(o, ".spec.hostnames[1]").asString()).isEqualTo("b.example.com");
    assertThat(ServerTables.find(o, "{.spec.n}").asInt()).isEqualTo(3);
    assertThat(ServerTables.find(o, ".spec.hostnames").isArray()).isTrue();
    assertThat(ServerTables.find(o, ".spec.missing")).isNull();
    assertThat(ServerTables.find(o, ".spec.hostnames[5]")).isNull();
    assertThat(ServerTables.find(o, ".spec.n.deeper")).isNull();
    assertThat(ServerTables.find(o, "spec.n")).isNull();
    assertThat(ServerTables.find(o, ".spec[?(@.n)]")).isNull();
  }

  @Test
  void aGslbPrintsItsStrategyAndGeoTagAndItsHostsWhenWide() throws Exception {
    List<ServerTables.Column> columns =
        ServerTables.crdColumns(crd("crds/k8gb.io_gslbs.yaml"), "v1beta1").orElseThrow();
    JsonNode gslb =
        json(
            "{'apiVersion':'k8gb.io/v1beta1','kind':'Gslb','metadata':{'name':'app',"
                + "'namespace':'default','creationTimestamp':'2026-11-30T11:55:00Z'},"
                + "'spec':{'strategy':{'type':'failover','dnsTtlSeconds':30}},"
                + "'status':{'geoTag':'eu','hosts':'app.cloud.example.com'}}");

    JsonNode table =
        ServerTables.customResources(
            columns, List.of(gslb), "42", ServerTables.Include.METADATA, NOW);

    assertThat(table.path("kind").asString()).isEqualTo("Table");
    assertThat(table.path("apiVersion").asString()).isEqualTo("meta.k8s.io/v1");
    assertThat(table.path("metadata").path("resourceVersion").asString()).isEqualTo("42");
    assertThat(table.path("columnDefinitions").valueStream().map(c -> c.path("name").asString()))
        .containsExactly("Name", "strategy", "geoTag", "hosts");
    assertThat(table.path("columnDefinitions").get(3).path("priority").asInt()).isEqualTo(1);
    JsonNode row = table.path("rows").get(0);
    assertThat(row.path("cells").valueStream().map(JsonNode::asString))
        .containsExactly("app", "failover", "eu", "app.cloud.example.com");
    assertThat(row.path("object").path("kind").asString()).isEqualTo("PartialObjectMetadata");
    assertThat(row.path("object").path("metadata").path("namespace").asString())
        .isEqualTo("default");
    assertThat(row.path("object").has("spec")).isFalse();
  }

  @Test
  void aCrdWithoutPrinterColumnsPrintsNameAndAgeAndAMissingValueIsAnEmptyCell() throws Exception {
    List<ServerTables.Column> dnsEndpoint =
        ServerTables.crdColumns(crd("crds/dnsendpoints.externaldns.k8s.io.yaml"), "v1alpha1")
            .orElseThrow();
    List<ServerTables.Column> gslb =
        ServerTables.crdColumns(crd("crds/k8gb.io_gslbs.yaml"), "v1beta1").orElseThrow();
    JsonNode noStatus =
        json(
            "{'metadata':{'name':'app','creationTimestamp':'2026-11-30T11:54:50Z'},"
                + "'spec':{'strategy':{'type':'roundRobin'}}}");

    JsonNode ages =
        ServerTables.customResources(
            dnsEndpoint, List.of(noStatus), "1", ServerTables.Include.NONE, NOW);
    JsonNode empty =
        ServerTables.customResources(
            gslb, List.of(noStatus), "1", ServerTables.Include.OBJECT, NOW);

    assertThat(dnsEndpoint).extracting(ServerTables.Column::name).containsExactly("Name", "Age");
    assertThat(ages.path("rows").get(0).path("cells").valueStream().map(JsonNode::asString))
        .containsExactly("app", "5m10s");
    assertThat(ages.path("rows").get(0).has("object")).isFalse();
    assertThat(empty.path("rows").get(0).path("cells").get(2).isNull()).isTrue();
    assertThat(empty.path("rows").get(0).path("object").path("spec").isObject()).isTrue();
    assertThat(ServerTables.crdColumns(crd("crds/k8gb.io_gslbs.yaml"), "v9")).isEmpty();
  }

  @Test
  void aStringColumnPrintsAnArrayAsJsonAndTypedColumnsTheirValues() {
    JsonNode crd =
        json(
            "{'spec':{'versions':[{'name':'v1','additionalPrinterColumns':["
                + "{'name':'Hostnames','type':'string','jsonPath':'.spec.hostnames'},"
                + "{'name':'TTL','type':'integer','jsonPath':'.spec.ttl'},"
                + "{'name':'Ready','type':'boolean','jsonPath':'.status.ready'},"
                + "{'name':'Since','type':'date','jsonPath':'.status.since'}]}]}}");
    JsonNode route =
        json(
            "{'metadata':{'name':'web'},'spec':{'hostnames':['a.example.com','b.example.com'],"
                + "'ttl':30},'status':{'ready':true,'since':'not a time'}}");

    JsonNode table =
        ServerTables.customResources(
            ServerTables.crdColumns(crd, "v1").orElseThrow(),
            List.of(route),
            "1",
            ServerTables.Include.NONE,
            NOW);

    JsonNode cells = table.path("rows").get(0).path("cells");
    assertThat(cells.get(1).asString()).isEqualTo("[\"a.example.com\",\"b.example.com\"]");
    assertThat(cells.get(2).isNumber()).isTrue();
    assertThat(cells.get(2).asLong()).isEqualTo(30);
    assertThat(cells.get(3).asBoolean()).isTrue();
    assertThat(cells.get(4).asString()).isEqualTo("<invalid>");
    assertThat(table.path("columnDefinitions").get(1).path("description").asString())
        .isEqualTo("Custom resource definition column (in JSONPath format): .spec.hostnames");
  }

  @Test
  void anEventRowIsTheApiServersEventPrinter() {
    JsonNode recorded =
        json(
            "{'apiVersion':'v1','kind':'Event','metadata':{'name':'app.1','namespace':'default'},"
                + "'involvedObject':{'kind':'Gslb','name':'app','namespace':'default'},"
                + "'reason':'InvalidSpec','message':' spec.strategy.type: unknown \\n','type':'Warning',"
                + "'eventTime':'2026-11-30T11:59:15.000000Z','reportingComponent':'cairn.dev/record-writer',"
                + "'reportingInstance':'writer-0'}");
    JsonNode repeated =
        json(
            "{'metadata':{'name':'app.2'},'involvedObject':{'kind':'Node'},"
                + "'firstTimestamp':'2026-11-30T10:00:00Z','lastTimestamp':'2026-11-30T11:00:00Z',"
                + "'count':4,'source':{'component':'kubelet','host':'node-1'},'type':'Normal',"
                + "'reason':'Ready','message':'ready'}");

    JsonNode table =
        ServerTables.events(List.of(recorded, repeated), "7", ServerTables.Include.METADATA, NOW);

    assertThat(table.path("columnDefinitions").valueStream().map(c -> c.path("name").asString()))
        .containsExactly(
            "Last Seen",
            "Type",
            "Reason",
            "Object",
            "Subobject",
            "Source",
            "Message",
            "First Seen",
            "Count",
            "Name");
    assertThat(table.path("rows").get(0).path("cells").valueStream().map(JsonNode::asString))
        .containsExactly(
            "45s",
            "Warning",
            "InvalidSpec",
            "gslb/app",
            "",
            "cairn.dev/record-writer, writer-0",
            "spec.strategy.type: unknown",
            "45s",
            "1",
            "app.1");
    assertThat(table.path("rows").get(1).path("cells").valueStream().map(JsonNode::asString))
        .containsExactly(
            "60m", "Normal", "Ready", "node", "", "kubelet, node-1", "ready", "120m", "4", "app.2");
  }
}
