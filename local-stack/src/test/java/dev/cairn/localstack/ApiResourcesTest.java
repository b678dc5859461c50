package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.CairnJson;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Gateway API kinds the mock APIs serve: what the topology-watcher discovers there. */
class ApiResourcesTest {

  private static final JsonMapper JSON = CairnJson.kubernetesMapperBuilder().build();

  @Test
  void discoveryListsTheRoutesAndGatewaysInGatewayApiV1() {
    JsonNode v1 =
        JSON.readTree(
            MockKubernetesApi.discoveryDocuments().get("/apis/gateway.networking.k8s.io/v1"));

    assertThat(v1.path("groupVersion").asString()).isEqualTo("gateway.networking.k8s.io/v1");
    assertThat(v1.path("resources").valueStream().map(r -> r.path("name").asString()))
        .containsExactly(
            "httproutes", "grpcroutes", "tlsroutes", "tcproutes", "udproutes", "gateways");
    assertThat(ApiResources.kind("gateway.networking.k8s.io", "v1", "gateways"))
        .hasValue("Gateway");
    assertThat(ApiResources.kind("gateway.networking.k8s.io", "v1beta1", "gateways")).isEmpty();
  }

  @Test
  void discoveryListsIstiosVirtualServicesAndGateways() {
    JsonNode v1 =
        JSON.readTree(MockKubernetesApi.discoveryDocuments().get("/apis/networking.istio.io/v1"));
    assertThat(v1.path("resources").valueStream().map(r -> r.path("name").asString()))
        .containsExactly("virtualservices", "gateways");
    assertThat(ApiResources.kind("networking.istio.io", "v1", "gateways")).hasValue("Gateway");
    assertThat(ApiResources.kind("networking.istio.io", "v1", "virtualservices"))
        .hasValue("VirtualService");
    assertThat(MockKubernetesApi.CRDS)
        .contains(
            "crds/virtualservices.networking.istio.io.yaml",
            "crds/gateways.networking.istio.io.yaml");
  }

  @Test
  void theGatewayCrdIsCreatedAndPrintsClassAndFirstAddress() throws Exception {
    String resource = "crds/gateways.gateway.networking.k8s.io.yaml";
    assertThat(MockKubernetesApi.CRDS).contains(resource);
    JsonNode crd;
    try (InputStream in = ApiResourcesTest.class.getClassLoader().getResourceAsStream(resource)) {
      crd = JSON.valueToTree(new Yaml(new SafeConstructor(new LoaderOptions())).load(in));
    }
    assertThat(crd.path("spec").path("names").path("plural").asString()).isEqualTo("gateways");

    List<ServerTables.Column> columns = ServerTables.crdColumns(crd, "v1").orElseThrow();
    JsonNode gateway =
        JSON.readTree(
            ("{'apiVersion':'gateway.networking.k8s.io/v1','kind':'Gateway','metadata':{"
                    + "'name':'public','namespace':'edge','creationTimestamp':'2026-11-30T11:55:00Z'},"
                    + "'spec':{'gatewayClassName':'example'},"
                    + "'status':{'addresses':[{'type':'IPAddress','value':'203.0.113.50'}]}}")
                .replace('\'', '"'));
    JsonNode table =
        ServerTables.customResources(
            columns,
            List.of(gateway),
            "1",
            ServerTables.Include.NONE,
            Instant.parse("2026-11-30T12:00:00Z"));

    assertThat(table.path("rows").get(0).path("cells").valueStream().map(JsonNode::asString))
        .containsExactly("public", "example", "203.0.113.50", "5m");
  }
}
