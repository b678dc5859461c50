package dev.cairn.recordwriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.MutableClock;
import dev.cairn.recordwriter.MockKubernetes.Write;
import dev.cairn.recordwriter.kube.EventWriter;
import dev.cairn.recordwriter.kube.WriteRateLimiter;
import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.notice.Notice;
import dev.cairn.recordwriter.notice.Notice.Reason;
import dev.cairn.recordwriter.notice.Notice.Subject;
import dev.cairn.recordwriter.notice.Notices;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Event writer against the CRUD mock: once per condition, bumped when it persists. */
class EventWriterIT {

  private static final Duration REFRESH = Duration.ofMinutes(30);

  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-14T12:00:00Z"));
  private final AtomicBoolean leader = new AtomicBoolean(true);
  private MockKubernetes api;

  @BeforeEach
  void start() {
    api = new MockKubernetes(false);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private EventWriter writer() {
    return new EventWriter(
        api.client(),
        new EventWriter.Settings(true, REFRESH, "writer-a"),
        new WriteRateLimiter(100, 100),
        new WriterMetrics(new SimpleMeterRegistry()),
        clock,
        leader::get);
  }

  private static Notice conflict() {
    return new Notice(
        new Subject("gateway.networking.k8s.io/v1", "HTTPRoute", "shop", "web", "uid-web"),
        new Subject("externaldns.k8s.io/v1alpha1", "DNSEndpoint", "shop", "httproute-web", null),
        Reason.RECORD_CONFLICT,
        Notices.PUBLISH,
        "DNSEndpoint shop/httproute-web wanted by HTTPRoute/shop/web is held by someone");
  }

  private List<String> writes() {
    return api.writesOf(MockKubernetes.EVENT_WRITES, "shop", null).stream()
        .map(Write::method)
        .toList();
  }

  private Event stored() {
    return api.client()
        .events()
        .v1()
        .events()
        .inNamespace("shop")
        .withName(conflict().eventName())
        .get();
  }

  @Test
  void recordsAConditionOnceThenBumpsItAfterTheRefreshInterval() {
    try (EventWriter events = writer()) {
      events.observe(conflict());
      await().atMost(Duration.ofSeconds(10)).until(() -> writes().equals(List.of("POST")));
      Event created = stored();
      assertThat(created.getReportingInstance()).isEqualTo("writer-a");
      assertThat(created.getEventTime().getTime()).isEqualTo("2026-03-14T12:00:00.000000Z");
      assertThat(created.getSeries()).isNull();

      clock.advance(Duration.ofMinutes(10));
      events.observe(conflict());
      clock.advance(REFRESH);
      events.observe(conflict());

      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> writes().equals(List.of("POST", "POST", "PATCH")));
      assertThat(stored().getSeries().getCount()).isEqualTo(2);
      assertThat(stored().getSeries().getLastObservedTime().getTime())
          .isEqualTo("2026-03-14T12:40:00.000000Z");
    }
  }

  @Test
  void aNewInstanceFindsTheEventAndBumpsItInsteadOfAddingOne() {
    try (EventWriter first = writer()) {
      first.observe(conflict());
      await().atMost(Duration.ofSeconds(10)).until(() -> writes().equals(List.of("POST")));
    }
    try (EventWriter second = writer()) {
      second.observe(conflict());
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> writes().equals(List.of("POST", "POST", "PATCH")));
    }
    assertThat(api.events("shop")).hasSize(1);
  }

  @Test
  void aStandbyRecordsNothing() {
    leader.set(false);
    try (EventWriter events = writer()) {
      events.observe(conflict());
      leader.set(true);
      // Events go out in order: once a later one is written, the standby's would have been.
      Notice fence =
          new Notice(
              new Subject("k8gb.io/v1beta1", "Gslb", "shop", "fence", "uid-fence"),
              null,
              Reason.INVALID_SPEC,
              Notices.WRITE_STATUS,
              "a fence");
      events.observe(fence);
      await().atMost(Duration.ofSeconds(10)).until(() -> writes().equals(List.of("POST")));
      assertThat(stored()).isNull();

      // The standby's observation was not remembered: the leader's is news.
      events.observe(conflict());
      await().atMost(Duration.ofSeconds(10)).until(() -> writes().equals(List.of("POST", "POST")));
      assertThat(stored()).isNotNull();
    }
  }
}
