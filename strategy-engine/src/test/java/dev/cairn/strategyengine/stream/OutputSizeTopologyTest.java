package dev.cairn.strategyengine.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.strategyengine.gslb.GslbSettings;
import dev.cairn.strategyengine.placement.PlacementSettings;
import dev.cairn.strategyengine.stream.EngineTopology.StoreType;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A decision or status larger than a Kafka record may be ({@code engine.max-output-size}) is not
 * sent: sending it failed the producer and stopped the engine for every other object. The previous
 * output stays, a Gslb's status says why, and everything else goes on being decided.
 */
class OutputSizeTopologyTest {

  /** Small enough that a few dozen host names overflow it, large enough for one. */
  private static final int LIMIT = 4096;

  private static final GslbSettings SETTINGS =
      GslbSettings.defaults("eu").withZones(List.of("cloud.example.com"));

  private EngineDriver driver;

  @BeforeEach
  void start() {
    driver =
        new EngineDriver(
            PlacementSettings.defaults(), SETTINGS, EngineDriver.START, StoreType.IN_MEMORY, LIMIT);
    driver
        .synced()
        .service(EngineDriverFixtures.clusterIpService("shop", "web"))
        .endpoints(EngineDriverFixtures.endpoints("shop", "web", "n1"))
        .node(EngineDriverFixtures.worker("n1", "eu-1a", "10.0.0.1"))
        .node(EngineDriverFixtures.ingress("i1", "eu-1a", "192.0.2.1"));
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  @Test
  void aGslbWhoseDecisionIsTooLargeKeepsItsPreviousDecisionAndSaysWhyInItsStatus() {
    driver.gslb(gslb("big", hosts("big", 1)));
    TargetDecision first = driver.latest().get("Gslb/shop/big");
    assertThat(first.disposition()).isEqualTo(Disposition.PUBLISH);
    driver.readStatuses();

    driver.gslb(gslb("big", hosts("big", 60)));

    assertThat(driver.read()).as("no decision is sent").isEmpty();
    assertThat(driver.metrics.tooLarge("decision")).isEqualTo(1);
    assertThat(driver.storedDecision("Gslb/shop/big")).isEqualTo(first);
    GslbStatus status = driver.latestStatuses().get("Gslb/shop/big");
    assertThat(status.problems())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("decision='")
        .contains(" bytes': over the limit of " + LIMIT + " bytes")
        .contains("engine.max-output-size")
        .contains("the previous decision stays");
    assertThat(status.hosts())
        .as("the status keeps what is served")
        .isEqualTo("big-0.cloud.example.com");

    driver.gslb(gslb("small", hosts("small", 1)));
    assertThat(driver.latest()).containsKey("Gslb/shop/small");

    driver.gslb(gslb("big", hosts("big", 2)));
    TargetDecision smaller = driver.latest().get("Gslb/shop/big");
    assertThat(smaller.records()).hasSizeGreaterThan(first.records().size());
    assertThat(driver.latestStatuses().get("Gslb/shop/big").problems()).isEmpty();
  }

  @Test
  void aRouteWhoseDecisionIsTooLargeKeepsItsPreviousDecision() {
    driver.route(EngineDriverFixtures.route("shop", "web", "web", hosts("web", 1)));
    TargetDecision first = driver.latest().get("HTTPRoute/shop/web");
    assertThat(first.disposition()).isEqualTo(Disposition.PUBLISH);

    driver.route(EngineDriverFixtures.route("shop", "web", "web", hosts("web", 80)));

    List<KeyValue<String, TargetDecision>> sent = driver.read();
    assertThat(sent).as("neither the decision nor a withdrawal is sent").isEmpty();
    assertThat(driver.metrics.tooLarge("decision")).isEqualTo(1);
    assertThat(driver.storedDecision("HTTPRoute/shop/web")).isEqualTo(first);

    driver.route(EngineDriverFixtures.route("shop", "other", "web", hosts("other", 1)));
    assertThat(driver.latest()).containsKey("HTTPRoute/shop/other");

    driver.route(EngineDriverFixtures.route("shop", "web", "web", hosts("web", 3)));
    assertThat(driver.latest().get("HTTPRoute/shop/web").records()).hasSize(3);
  }

  private static List<String> hosts(String prefix, int count) {
    return IntStream.range(0, count)
        .mapToObj(i -> prefix + "-" + i + ".cloud.example.com")
        .toList();
  }

  private static GslbState gslb(String name, List<String> hosts) {
    return new GslbState(
        "shop",
        name,
        "uid-" + name,
        null,
        hosts.stream()
            .map(h -> new GslbState.IngressRule(h, List.of(BackendRef.service("web"))))
            .toList(),
        new GslbStrategy("roundRobin", null, null, Map.of(), null),
        null,
        Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.10"),
        List.of());
  }
}
