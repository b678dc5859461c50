package dev.cairn.recordwriter.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.decision.GslbStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** k8gb's per-Gslb gauges: what they count, and that only the leader exports them. */
class GslbHealthMetersTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final GslbHealthMeters meters = new GslbHealthMeters(registry);

  private static GslbStatus status(
      String name, Map<String, String> health, Map<String, List<String>> records) {
    return new GslbStatus(
        "shop",
        name,
        "uid-" + name,
        "eu",
        health,
        records,
        String.join(", ", health.keySet()),
        List.of("203.0.113.11", "2001:db8::11"),
        List.of(),
        List.of());
  }

  private static final GslbStatus APP =
      status(
          "app",
          Map.of(
              "a.cloud.example.com",
              "Healthy",
              "b.cloud.example.com",
              "Healthy",
              "c.cloud.example.com",
              "Unhealthy",
              "d.cloud.example.com",
              "NotFound"),
          Map.of(
              "a.cloud.example.com", List.of("203.0.113.11", "198.51.100.7"),
              "b.cloud.example.com", List.of("203.0.113.11", "2001:db8::11", "198.51.100.7")));

  private double gauge(String name, String gslb, String... tags) {
    return registry.get(name).tag("namespace", "shop").tag("name", gslb).tags(tags).gauge().value();
  }

  @Test
  void countsAsK8gbDoes() {
    meters.onLeadership(true);
    meters.onStatus("Gslb/shop/app", APP);

    assertThat(gauge("k8gb.gslb.healthy.records", "app")).isEqualTo(5);
    assertThat(gauge("k8gb.gslb.healthy.local.records", "app", "geotag", "eu")).isEqualTo(2);
    assertThat(gauge("k8gb.gslb.service.status.num", "app", "status", "Healthy")).isEqualTo(2);
    assertThat(gauge("k8gb.gslb.service.status.num", "app", "status", "Unhealthy")).isEqualTo(1);
    assertThat(gauge("k8gb.gslb.service.status.num", "app", "status", "NotFound")).isEqualTo(1);
  }

  @Test
  void aChangeUpdatesTheGaugesAndATombstoneRemovesThem() {
    meters.onLeadership(true);
    meters.onStatus("Gslb/shop/app", APP);
    meters.onStatus(
        "Gslb/shop/app", status("app", Map.of("a.cloud.example.com", "Unhealthy"), Map.of()));

    assertThat(gauge("k8gb.gslb.healthy.records", "app")).isZero();
    assertThat(gauge("k8gb.gslb.service.status.num", "app", "status", "Healthy")).isZero();
    assertThat(gauge("k8gb.gslb.service.status.num", "app", "status", "Unhealthy")).isEqualTo(1);
    assertThat(registry.getMeters()).hasSize(5);

    meters.onStatus("Gslb/shop/app", null);
    assertThat(registry.getMeters()).isEmpty();
    assertThat(meters.exported()).isZero();
  }

  @Test
  void onlyTheLeaderExportsAndANewLeaderExportsWhatItKnows() {
    meters.onStatus("Gslb/shop/app", APP);
    meters.onStatus(
        "Gslb/shop/web", status("web", Map.of("w.cloud.example.com", "Healthy"), Map.of()));
    assertThat(registry.getMeters()).as("a standby exports nothing").isEmpty();

    meters.onLeadership(true);
    assertThat(meters.exported()).isEqualTo(2);
    assertThat(gauge("k8gb.gslb.healthy.records", "app")).isEqualTo(5);
    assertThat(gauge("k8gb.gslb.service.status.num", "web", "status", "Healthy")).isEqualTo(1);

    meters.onLeadership(false);
    assertThat(registry.getMeters()).isEmpty();
    meters.onStatus("Gslb/shop/web", null);
    meters.onLeadership(true);
    assertThat(meters.exported()).as("the deleted Gslb stays gone").isEqualTo(1);
  }

  /**
   * A hand-written status whose host has {@code null} records decodes (the status writer reports
   * the field and leaves it out); the gauges count it as no records. It used to throw from the
   * leadership listener, which ends {@code LeaderElection.start()} when election is off (the
   * writer's start fails) and cuts the listeners after it short.
   */
  @Test
  void aHostWithoutRecordsCountsAsNoneAndNeverFailsTheLeadershipChange() {
    GslbStatus status =
        new CairnDeserializer<>(GslbStatus.class)
            .deserialize(
                "cairn.decision.gslb-status.v1",
                ("{\"namespace\":\"shop\",\"name\":\"app\",\"geoTag\":\"eu\","
                        + "\"serviceHealth\":{\"a.cloud.example.com\":\"Healthy\"},"
                        + "\"healthyRecords\":{\"a.cloud.example.com\":null,"
                        + "\"b.cloud.example.com\":[\"203.0.113.11\"]},"
                        + "\"exposedIps\":[\"203.0.113.11\"]}")
                    .getBytes(StandardCharsets.UTF_8));
    meters.onStatus("Gslb/shop/app", status);

    assertThatCode(() -> meters.onLeadership(true)).doesNotThrowAnyException();
    assertThat(gauge("k8gb.gslb.healthy.records", "app")).isEqualTo(1);
    assertThat(gauge("k8gb.gslb.healthy.local.records", "app", "geotag", "eu")).isEqualTo(1);
    assertThat(gauge("k8gb.gslb.service.status.num", "app", "status", "Healthy")).isEqualTo(1);
  }

  /**
   * A status whose key does not name its own Gslb (sent by hand) changes nothing: the gauges of the
   * Gslb it names stay that Gslb's, and the key's last good status stays exported.
   */
  @Test
  void aStatusWhoseKeyDoesNotMatchItsGslbChangesNothing() {
    meters.onLeadership(true);
    meters.onStatus("Gslb/shop/app", APP);
    GslbStatus web = status("web", Map.of("w.cloud.example.com", "Healthy"), Map.of());
    meters.onStatus("Gslb/shop/web", web);

    meters.onStatus(
        "Gslb/shop/app",
        status("web", Map.of("w.cloud.example.com", "Unhealthy"), Map.of("w", List.of("x"))));
    assertThat(gauge("k8gb.gslb.healthy.records", "app")).isEqualTo(5);
    assertThat(gauge("k8gb.gslb.service.status.num", "web", "status", "Healthy")).isEqualTo(1);

    meters.onStatus("Gslb/shop/app", null);
    assertThat(gauge("k8gb.gslb.service.status.num", "web", "status", "Healthy"))
        .as("the tombstone of another key leaves web's gauges alone")
        .isEqualTo(1);
  }
}
