package dev.cairn.dnsresponder.store;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.RecordKind;
import dev.cairn.dnsresponder.zone.SnapshotBuilder;
import dev.cairn.dnsresponder.zone.Target;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZoneCacheTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private ZoneCache cache;

  private ZoneCache cache(
      InMemoryEndpointSource source,
      SnapshotFile file,
      String clusterId,
      int maxRecords,
      Clock clock) {
    cache =
        new ZoneCache(
            ZoneFixtures.zones(),
            new SnapshotBuilder.Limits(60, maxRecords),
            source,
            file,
            new ZoneCache.Settings(
                Duration.ofMillis(20),
                Duration.ofMillis(100),
                Duration.ofMillis(50),
                Duration.ofHours(24),
                clusterId),
            clock,
            new ResponderMetrics(registry));
    cache.start();
    return cache;
  }

  @AfterEach
  void close() {
    if (cache != null) {
      cache.close();
    }
  }

  private static EndpointInput app(String ip) {
    return endpoint("a", 0, "app.cloud.example.com", "A", 0, ip);
  }

  private static boolean serves(AnswerView view, String name) {
    return view.snapshot() != null && view.snapshot().node(name) != null;
  }

  @Test
  void isUnsyncedUntilTheSourceSyncsThenFollowsChanges() {
    InMemoryEndpointSource source = new InMemoryEndpointSource();
    ZoneCache c = cache(source, null, "c1", 1000, Clock.systemUTC());

    assertThat(c.view().state()).isEqualTo(ServingState.UNSYNCED);
    source.sync(List.of(app("192.0.2.1")));
    await().atMost(WAIT).until(() -> c.view().state() == ServingState.SYNCED);
    assertThat(serves(c.view(), "app.cloud.example.com")).isTrue();

    source.set(List.of(endpoint("a", 0, "other.cloud.example.com", "A", 0, "192.0.2.2")));
    await().atMost(WAIT).until(() -> serves(c.view(), "other.cloud.example.com"));
    assertThat(serves(c.view(), "app.cloud.example.com")).isFalse();
    assertThat(c.status().names()).isGreaterThan(0);
    assertThat(registry.get("responder.snapshot.records").gauge().value()).isEqualTo(3.0);
    // Both rebuilds were timed: the first changed every name (the apex, the glue of ns1 and app),
    // the second two (app gone, other new).
    assertThat(swapped().count()).isEqualTo(2);
    assertThat(registry.get("responder.snapshot.rebuild.names").summary().totalAmount())
        .isEqualTo(3 + 2);
    source.set(List.of(endpoint("a", 0, "other.cloud.example.com", "A", 0, "192.0.2.2")));
    await().atMost(WAIT).until(() -> unchanged().count() == 1);
    assertThat(swapped().count()).as("the same endpoints again change nothing").isEqualTo(2);
  }

  private io.micrometer.core.instrument.Timer swapped() {
    return registry.get("responder.snapshot.rebuilds").tag("outcome", "swapped").timer();
  }

  private io.micrometer.core.instrument.Timer unchanged() {
    return registry.get("responder.snapshot.rebuilds").tag("outcome", "unchanged").timer();
  }

  @Test
  void rebuildsUnderContinuousChangeAreSpacedByTheirOwnDuration() {
    assertThat(ZoneCache.rebuildDelayMillis(50, 0, 0)).as("before the first rebuild").isEqualTo(50);
    assertThat(ZoneCache.rebuildDelayMillis(50, 5, 0)).as("a quick rebuild").isEqualTo(50);
    assertThat(ZoneCache.rebuildDelayMillis(50, 100, 0))
        .as("a 100 ms rebuild that just ended: 4 x 100 ms before the next")
        .isEqualTo(400);
    assertThat(ZoneCache.rebuildDelayMillis(50, 100, 300)).isEqualTo(100);
    assertThat(ZoneCache.rebuildDelayMillis(50, 100, 5_000))
        .as("long after: the debounce")
        .isEqualTo(50);
  }

  @Test
  void aFailedRebuildKeepsThePreviousViewAndIsReported() {
    InMemoryEndpointSource source = new InMemoryEndpointSource();
    ZoneCache c = cache(source, null, "c1", 4, Clock.systemUTC());
    source.sync(List.of(app("192.0.2.1")));
    await().atMost(WAIT).until(() -> c.view().state() == ServingState.SYNCED);
    AnswerView before = c.view();

    source.set(
        List.of(
            endpoint(
                "a", 0, "big.cloud.example.com", "A", 0, "192.0.2.1", "192.0.2.2", "192.0.2.3")));
    await().atMost(WAIT).until(() -> c.status().lastFailure() != null);

    assertThat(c.view()).isSameAs(before);
    assertThat(c.status().lastFailure()).contains("responder.max-records");
    assertThat(registry.get("responder.snapshot.rebuild.failures").counter().count())
        .isEqualTo(1.0);
    assertThat(registry.get("responder.snapshot.rebuild.failing").gauge().value()).isEqualTo(1.0);
    assertThat(registry.get("responder.snapshot.rebuilds").tag("outcome", "failed").timer().count())
        .isEqualTo(1);

    source.set(List.of(app("192.0.2.9")));
    await().atMost(WAIT).until(() -> c.status().lastFailure() == null);
    assertThat(c.view()).isNotSameAs(before);
    assertThat(registry.get("responder.snapshot.rebuild.failing").gauge().value()).isZero();
  }

  @Test
  void changesTakenByARefusedRebuildAreAppliedByTheNextOne() {
    InMemoryEndpointSource source = new InMemoryEndpointSource();
    ZoneCache c = cache(source, null, "c1", 4, Clock.systemUTC());
    source.sync(List.of(app("192.0.2.1")));
    await().atMost(WAIT).until(() -> c.view().state() == ServingState.SYNCED);

    // Object c appears in the same rebuild as a change to a that goes over the cap...
    EndpointInput other = endpoint("c", 0, "c.cloud.example.com", "A", 0, "192.0.2.5");
    source.set(
        List.of(
            endpoint(
                "a", 0, "big.cloud.example.com", "A", 0, "192.0.2.1", "192.0.2.2", "192.0.2.3"),
            other));
    await().atMost(WAIT).until(() -> c.status().lastFailure() != null);
    assertThat(serves(c.view(), "c.cloud.example.com")).isFalse();

    // ...and is no change the next time the source is asked, yet the next snapshot holds it.
    source.set(List.of(app("192.0.2.9"), other));
    await().atMost(WAIT).until(() -> c.status().lastFailure() == null);
    assertThat(serves(c.view(), "c.cloud.example.com")).isTrue();
    assertThat(c.view().snapshot().node("app.cloud.example.com").get(RecordKind.A).targets())
        .extracting(Target::value)
        .containsExactly("192.0.2.9");
    assertThat(serves(c.view(), "big.cloud.example.com")).isFalse();
  }

  @Test
  void writesTheSnapshotAfterSyncAndServesItWhenTheApiDoesNotSync() throws Exception {
    SnapshotFile file = new SnapshotFile(dir.resolve("sub/snapshot.json"));
    InMemoryEndpointSource first = new InMemoryEndpointSource();
    ZoneCache c = cache(first, file, "c1", 1000, Clock.systemUTC());
    first.sync(List.of(app("192.0.2.1")));
    await().atMost(WAIT).until(() -> file.read().isPresent());
    assertThat(file.read().orElseThrow().clusterId()).isEqualTo("c1");
    assertThat(file.read().orElseThrow().endpoints()).containsExactly(app("192.0.2.1"));
    first.set(List.of(app("192.0.2.5")));
    await()
        .atMost(WAIT)
        .until(() -> file.read().orElseThrow().endpoints().equals(List.of(app("192.0.2.5"))));
    c.close();

    InMemoryEndpointSource never = new InMemoryEndpointSource();
    ZoneCache restarted = cache(never, file, "c1", 1000, Clock.systemUTC());
    assertThat(restarted.view().state()).isEqualTo(ServingState.UNSYNCED);
    await().atMost(WAIT).until(() -> restarted.view().state() == ServingState.FROM_SNAPSHOT);
    assertThat(serves(restarted.view(), "app.cloud.example.com")).isTrue();
    assertThat(restarted.status().snapshotWrittenAt()).isNotNull();

    never.sync(List.of(endpoint("a", 0, "new.cloud.example.com", "A", 0, "192.0.2.7")));
    await().atMost(WAIT).until(() -> restarted.view().state() == ServingState.SYNCED);
    assertThat(serves(restarted.view(), "new.cloud.example.com")).isTrue();
  }

  @Test
  void ignoresASnapshotOfAnotherClusterOrTooOld() throws Exception {
    SnapshotFile file = new SnapshotFile(dir.resolve("snapshot.json"));
    file.write(new SnapshotFile.Content(1, "other", Instant.now(), List.of(app("192.0.2.1"))));
    ZoneCache c = cache(new InMemoryEndpointSource(), file, "c1", 1000, Clock.systemUTC());
    await()
        .during(Duration.ofMillis(400))
        .atMost(WAIT)
        .until(() -> c.view().state() == ServingState.UNSYNCED);
    c.close();

    file.write(
        new SnapshotFile.Content(
            1, "c1", Instant.parse("2020-01-01T00:00:00Z"), List.of(app("192.0.2.1"))));
    ZoneCache old =
        cache(
            new InMemoryEndpointSource(),
            file,
            "c1",
            1000,
            Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
    await()
        .during(Duration.ofMillis(400))
        .atMost(WAIT)
        .until(() -> old.view().state() == ServingState.UNSYNCED);
  }
}
