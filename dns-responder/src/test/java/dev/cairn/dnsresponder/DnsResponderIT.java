package dev.cairn.dnsresponder;

import static dev.cairn.dnsresponder.MockApi.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.dnsresponder.store.SnapshotFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/** The whole application against the fabric8 mock API server (CRUD mode). */
class DnsResponderIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final Map<String, String> LOCAL = Map.of("k8gb.io/dnstype", "local");

  @TempDir Path dir;

  static ConfigurableApplicationContext start(String apiUrl, String... extra) {
    List<String> properties =
        new java.util.ArrayList<>(
            List.of(
                "responder.kubernetes.master-url=" + apiUrl,
                "server.port=0",
                "responder.port=0",
                "responder.zones[0].name=cloud.example.com",
                "responder.zones[0].ns[0].name=ns1.cloud.example.com",
                "responder.zones[0].ns[0].addresses[0]=127.0.0.1",
                "responder.cluster-id=it"));
    properties.addAll(List.of(extra));
    return DnsResponderApplication.builder().properties(properties.toArray(String[]::new)).run();
  }

  @Test
  void servfailsUntilSyncedThenFollowsTheDnsEndpoints() throws Exception {
    Path snapshot = dir.resolve("snapshot.json");
    try (MockApi api = new MockApi();
        ConfigurableApplicationContext app =
            start(
                api.url(),
                "responder.label-selector[0]=k8gb.io/dnstype=local",
                "responder.label-selector[1]=cairn.dev/serve=true",
                "responder.snapshot-file=" + snapshot,
                "responder.snapshot-grace=1h")) {
      ResponderProbe probe = new ResponderProbe(app);

      // The API server is not up yet: SERVFAIL in the zone (never NXDOMAIN), REFUSED outside.
      assertThat(probe.rcode("app.cloud.example.com.", Type.A)).isEqualTo(Rcode.SERVFAIL);
      assertThat(probe.rcode("cloud.example.com.", Type.SOA)).isEqualTo(Rcode.SERVFAIL);
      assertThat(probe.rcode("www.example.org.", Type.A)).isEqualTo(Rcode.REFUSED);
      assertThat(probe.actuator("health/readiness").statusCode()).isEqualTo(503);
      assertThat(probe.actuator("health").body()).contains("\"state\":\"unsynced\"");

      api.start();
      api.apply(
          "app",
          LOCAL,
          List.of(endpoint("app.cloud.example.com", "A", 30, "192.0.2.1", "192.0.2.2")));
      api.apply(
          "other-selector",
          Map.of("cairn.dev/serve", "true"),
          List.of(endpoint("v6.cloud.example.com", "AAAA", 0, "2001:db8::1")));
      api.apply(
          "not-selected",
          Map.of("k8gb.io/dnstype", "extdns"),
          List.of(endpoint("hidden.cloud.example.com", "A", 0, "192.0.2.9")));

      await().atMost(WAIT).until(() -> probe.answers("app.cloud.example.com.", Type.A).size() == 2);
      Message answer = probe.query("app.cloud.example.com.", Type.A);
      assertThat(answer.getHeader().getFlag(Flags.AA)).isTrue();
      assertThat(answer.getSectionArray(1)[0].getTTL()).isEqualTo(30);
      await()
          .atMost(WAIT)
          .until(() -> probe.answers("v6.cloud.example.com.", Type.AAAA).size() == 1);
      assertThat(probe.rcode("hidden.cloud.example.com.", Type.A)).isEqualTo(Rcode.NXDOMAIN);

      // An object both selectors match counts once; leaving one selector keeps it served, leaving
      // both removes it (each informer reports its own add and delete).
      Map<String, String> both = Map.of("k8gb.io/dnstype", "local", "cairn.dev/serve", "true");
      api.apply("both", both, List.of(endpoint("both.cloud.example.com", "A", 0, "192.0.2.20")));
      await()
          .atMost(WAIT)
          .until(() -> probe.answers("both.cloud.example.com.", Type.A).size() == 1);
      api.apply(
          "both",
          Map.of("cairn.dev/serve", "true"),
          List.of(endpoint("both.cloud.example.com", "A", 0, "192.0.2.21")));
      await()
          .atMost(WAIT)
          .until(
              () -> probe.answers("both.cloud.example.com.", Type.A).equals(List.of("192.0.2.21")));
      api.apply(
          "both",
          Map.of("k8gb.io/dnstype", "extdns"),
          List.of(endpoint("both.cloud.example.com", "A", 0, "192.0.2.22")));
      await()
          .atMost(WAIT)
          .until(() -> probe.rcode("both.cloud.example.com.", Type.A) == Rcode.NXDOMAIN);
      assertThat(probe.actuator("health/readiness").statusCode()).isEqualTo(200);
      assertThat(probe.actuator("health").body()).contains("\"state\":\"synced\"");
      assertThat(probe.actuator("health/liveness").body())
          .contains("\"dnsListeners\"")
          .contains("\"listeners\":");
      assertThat(probe.actuator("health/readiness").body()).contains("\"dnsListeners\"");

      api.apply("app", LOCAL, List.of(endpoint("app.cloud.example.com", "A", 30, "192.0.2.7")));
      await()
          .atMost(WAIT)
          .until(
              () -> probe.answers("app.cloud.example.com.", Type.A).equals(List.of("192.0.2.7")));

      api.delete("app");
      await()
          .atMost(WAIT)
          .until(() -> probe.rcode("app.cloud.example.com.", Type.A) == Rcode.NXDOMAIN);

      SnapshotFile file = new SnapshotFile(snapshot);
      await().atMost(WAIT).until(() -> file.read().isPresent());
      assertThat(file.read().orElseThrow().clusterId()).isEqualTo("it");
      String metrics = probe.actuator("prometheus").body();
      assertThat(metrics)
          .contains("responder_queries_total{qtype=\"A\",rcode=\"NOERROR\",transport=\"udp\"}")
          .contains("responder_queries_total{qtype=\"A\",rcode=\"SERVFAIL\",transport=\"udp\"}")
          .contains("responder_query_latency_seconds_bucket")
          .contains("responder_snapshot_records")
          .contains("responder_snapshot_age_seconds")
          .contains("responder_snapshot_rebuilds_seconds_count{outcome=\"swapped\"}")
          .contains("responder_snapshot_rebuild_names_count");

      // An API outage: the informers keep their cache and the last view keeps serving.
      api.apply("back", LOCAL, List.of(endpoint("back.cloud.example.com", "A", 0, "192.0.2.8")));
      await()
          .atMost(WAIT)
          .until(() -> probe.answers("back.cloud.example.com.", Type.A).size() == 1);
      api.close();
      await()
          .atMost(WAIT)
          .until(() -> probe.actuator("health").body().contains("\"watching\":false"));
      assertThat(probe.answers("back.cloud.example.com.", Type.A)).containsExactly("192.0.2.8");
      assertThat(probe.rcode("app.cloud.example.com.", Type.A)).isEqualTo(Rcode.NXDOMAIN);
      assertThat(probe.actuator("health/readiness").statusCode()).isEqualTo(200);
      assertThat(probe.actuator("prometheus").body())
          .as("the lost watch is a metric, for CairnResponderNotWatching")
          .contains("responder_watching 0.0")
          .contains("responder_synced 1.0");
    }
  }

  @Test
  void servesTheSnapshotFileWhenTheApiIsUnreachableAtStart() throws Exception {
    Path snapshot = dir.resolve("snapshot.json");
    // A first responder syncs and writes its copy.
    try (MockApi api = new MockApi().start();
        ConfigurableApplicationContext first =
            start(
                api.url(),
                "responder.snapshot-file=" + snapshot,
                "responder.snapshot-write-interval=100ms")) {
      api.apply("app", LOCAL, List.of(endpoint("app.cloud.example.com", "A", 30, "192.0.2.1")));
      ResponderProbe probe = new ResponderProbe(first);
      await().atMost(WAIT).until(() -> probe.answers("app.cloud.example.com.", Type.A).size() == 1);
      SnapshotFile file = new SnapshotFile(snapshot);
      await()
          .atMost(WAIT)
          .until(() -> file.read().map(c -> !c.endpoints().isEmpty()).orElse(false));
    }
    // The API server is gone; a restarted responder serves the copy after the grace period.
    try (MockApi unreachable = new MockApi();
        ConfigurableApplicationContext second =
            start(
                unreachable.url(),
                "responder.snapshot-file=" + snapshot,
                "responder.snapshot-grace=500ms")) {
      ResponderProbe probe = new ResponderProbe(second);
      await()
          .atMost(WAIT)
          .until(
              () -> probe.answers("app.cloud.example.com.", Type.A).equals(List.of("192.0.2.1")));
      assertThat(probe.rcode("nope.cloud.example.com.", Type.A)).isEqualTo(Rcode.NXDOMAIN);
      assertThat(probe.actuator("health/readiness").statusCode()).isEqualTo(200);
      assertThat(probe.actuator("health").body())
          .contains("\"state\":\"from-snapshot\"")
          .contains("serving from snapshot");
    }
    // A responder of another cluster never serves that copy.
    try (MockApi unreachable = new MockApi();
        ConfigurableApplicationContext foreign =
            start(
                unreachable.url(),
                "responder.snapshot-file=" + snapshot,
                "responder.snapshot-grace=200ms",
                "responder.cluster-id=other")) {
      ResponderProbe probe = new ResponderProbe(foreign);
      await()
          .during(Duration.ofSeconds(1))
          .atMost(WAIT)
          .until(() -> probe.rcode("app.cloud.example.com.", Type.A) == Rcode.SERVFAIL);
    }
  }

  /**
   * A DNSEndpoint edited by hand (or by another tool) with a target that is not a string: its bad
   * target is reported and left out, and nothing else is held back. It used to fail every build
   * (the mapped endpoint refused a null target), so a responder that met it at its start stayed
   * unsynced, answering SERVFAIL for the whole zone.
   */
  @Test
  void aTargetOfTheWrongTypeIsReportedAndEverythingElseIsServed() throws Exception {
    try (MockApi api = new MockApi().start()) {
      api.apply("app", LOCAL, List.of(endpoint("app.cloud.example.com", "A", 0, "192.0.2.1")));
      Map<String, Object> wrongType = new java.util.HashMap<>();
      wrongType.put("dnsName", "odd.cloud.example.com");
      wrongType.put("recordType", "A");
      wrongType.put("targets", java.util.Arrays.asList("192.0.2.5", 7, null));
      api.apply("odd", LOCAL, List.of(wrongType));
      try (ConfigurableApplicationContext app = start(api.url())) {
        ResponderProbe probe = new ResponderProbe(app);
        await()
            .atMost(WAIT)
            .until(() -> probe.rcode("app.cloud.example.com.", Type.A) != Rcode.SERVFAIL);
        assertThat(probe.answers("app.cloud.example.com.", Type.A)).containsExactly("192.0.2.1");
        assertThat(probe.answers("odd.cloud.example.com.", Type.A)).containsExactly("192.0.2.5");
        assertThat(probe.actuator("health").body())
            .contains("\"state\":\"synced\"")
            .contains("\"problems\":2")
            .doesNotContain("lastRebuildFailure");

        // A later change is served too: the bad object holds nothing back.
        api.apply("new", LOCAL, List.of(endpoint("new.cloud.example.com", "A", 0, "192.0.2.9")));
        await()
            .atMost(WAIT)
            .until(() -> probe.answers("new.cloud.example.com.", Type.A).size() == 1);
      }
    }
  }

  @Test
  void aFailedRebuildKeepsServingThePreviousView() throws Exception {
    try (MockApi api = new MockApi().start();
        ConfigurableApplicationContext app = start(api.url(), "responder.max-records=4")) {
      ResponderProbe probe = new ResponderProbe(app);
      api.apply(
          "app",
          LOCAL,
          List.of(endpoint("app.cloud.example.com", "A", 0, "192.0.2.1", "192.0.2.2")));
      await().atMost(WAIT).until(() -> probe.answers("app.cloud.example.com.", Type.A).size() == 2);

      // 1 glue + 2 + 3 records: over the cap, the build is refused.
      api.apply(
          "big",
          LOCAL,
          List.of(
              endpoint("big.cloud.example.com", "A", 0, "192.0.2.3", "192.0.2.4", "192.0.2.5")));
      await()
          .atMost(WAIT)
          .until(() -> probe.actuator("health").body().contains("lastRebuildFailure"));

      assertThat(probe.answers("app.cloud.example.com.", Type.A)).hasSize(2);
      assertThat(probe.rcode("big.cloud.example.com.", Type.A)).isEqualTo(Rcode.NXDOMAIN);
      assertThat(probe.actuator("prometheus").body())
          .containsPattern("responder_snapshot_rebuild_failures_total [1-9]");
      assertThat(probe.actuator("health/readiness").statusCode()).isEqualTo(200);

      api.delete("big");
      await()
          .atMost(WAIT)
          .until(() -> !probe.actuator("health").body().contains("lastRebuildFailure"));
    }
  }
}
