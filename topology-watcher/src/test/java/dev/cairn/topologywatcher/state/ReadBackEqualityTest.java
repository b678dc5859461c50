package dev.cairn.topologywatcher.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.topologywatcher.normalize.BackendRefInput;
import dev.cairn.topologywatcher.normalize.EndpointSliceInput;
import dev.cairn.topologywatcher.normalize.EndpointsNormalizer;
import dev.cairn.topologywatcher.normalize.GatewayInput;
import dev.cairn.topologywatcher.normalize.GslbNormalizer;
import dev.cairn.topologywatcher.normalize.HttpRouteInput;
import dev.cairn.topologywatcher.normalize.Meta;
import dev.cairn.topologywatcher.normalize.NodeInput;
import dev.cairn.topologywatcher.normalize.NodeNormalizer;
import dev.cairn.topologywatcher.normalize.RouteNormalizer;
import dev.cairn.topologywatcher.normalize.ServiceInput;
import dev.cairn.topologywatcher.normalize.ServiceNormalizer;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A new leader compares what it reads back from Kafka with what it normalises; only an exact round
 * trip through the contract codec makes an unchanged cluster publish nothing.
 */
class ReadBackEqualityTest {

  private static final Meta META =
      new Meta(
          "shop",
          "web",
          "uid",
          Map.of(),
          Map.of("directdns.meisterlala.dev/ttl", "bad", "k8gb.io/strategy", "failover"));

  static Stream<Object> records() {
    return Stream.of(
        RouteNormalizer.httpRoute(
            new HttpRouteInput(
                META,
                "gateway.networking.k8s.io/v1",
                List.of("a.example.com", "bad host"),
                List.of(
                    new HttpRouteInput.Rule(
                        List.of(
                            new BackendRefInput("", "Service", null, "web", 80, 1),
                            new BackendRefInput(null, null, null, "api", null, null)))),
                List.of(
                    new RouteState.ParentRef(null, null, null, "public", null),
                    new RouteState.ParentRef(
                        "gateway.networking.k8s.io", "Gateway", "edge", "internal", "https")))),
        RouteNormalizer.gateway(
            new GatewayInput(
                META,
                "gateway.networking.k8s.io/v1",
                List.of(
                    new GatewayInput.Listener("*.example.com"), new GatewayInput.Listener(null)),
                List.of(
                    new GatewayInput.Address(null, "203.0.113.7"),
                    new GatewayInput.Address("Hostname", "lb.example.com"),
                    new GatewayInput.Address("NamedAddress", "pool")))),
        ServiceNormalizer.normalize(
            new ServiceInput(
                META,
                "LoadBalancer",
                List.of(new ServiceInput.LoadBalancerIngress("203.0.113.1", "lb.example.com")),
                List.of(new ServiceInput.Port(null, null, 80)))),
        EndpointsNormalizer.merge(
                "shop",
                "web",
                List.of(
                    new EndpointSliceInput(
                        "web-1",
                        "IPv4",
                        List.of(
                            new EndpointSliceInput.Endpoint(
                                List.of("10.0.0.1", "bad"), "node-a", null, null, true, false)))))
            .orElseThrow(),
        NodeNormalizer.normalize(
            new NodeInput(
                new Meta(
                    null,
                    "node-a",
                    null,
                    Map.of("topology.kubernetes.io/zone", "z"),
                    Map.of("k3s.io/external-ip", "x")),
                List.of(new NodeInput.Address("InternalIP", "10.0.0.1")))),
        GslbNormalizer.normalize(
            META,
            Map.of(
                "resourceRef",
                Map.of("kind", "Ingress", "name", "web", "matchLabels", Map.of("a", "b")),
                "strategy",
                Map.of("type", "roundRobin", "weight", Map.of("eu", 5), "dnsTtlSeconds", 30))));
  }

  @ParameterizedTest
  @MethodSource("records")
  @SuppressWarnings({"unchecked", "rawtypes"})
  void aNormalisedRecordReadBackFromKafkaEqualsItself(Object record) {
    byte[] bytes = new CairnSerializer<>().serialize("t", new RecordHeaders(), record);
    Object back =
        new CairnDeserializer(record.getClass()).deserialize("t", new RecordHeaders(), bytes);

    assertThat(back).isEqualTo(record);
    assertThat(StateDiff.differs(back, record)).isFalse();
  }
}
