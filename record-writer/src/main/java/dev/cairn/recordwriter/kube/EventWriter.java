package dev.cairn.recordwriter.kube;

import dev.cairn.recordwriter.metrics.WriterMetrics;
import dev.cairn.recordwriter.notice.Notice;
import dev.cairn.recordwriter.notice.NoticeLog;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records {@link Notice notices} as {@code events.k8s.io/v1} Events of type {@code Warning}, so
 * {@code kubectl describe httproute/gslb} shows them. A condition is recorded once ({@link
 * NoticeLog}), not at every plan or resync, and again (a count bump) only after {@code
 * refreshInterval} if it persists. The Event name derives from the condition, so a restart or a new
 * leader finds the Event already there (409) and bumps its {@code series} instead of adding one.
 *
 * <p>Sending is asynchronous on one thread with a bounded queue and its own token bucket, so Events
 * never delay record or status writes; when the queue is full a notice is dropped, counted and
 * forgotten, so it is recorded at a later observation. Only the leader records Events.
 */
public final class EventWriter implements AutoCloseable {

  /** The Event {@code reportingController}. */
  public static final String REPORTING_CONTROLLER = "cairn.dev/record-writer";

  private static final Logger log = LoggerFactory.getLogger(EventWriter.class);
  private static final int QUEUE = 1024;
  private static final int MAX_INSTANCE = 128;
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX").withZone(ZoneOffset.UTC);

  /**
   * Event settings.
   *
   * @param enabled false records no Events
   * @param refreshInterval how long a recorded condition stays recorded before it is recorded again
   * @param reportingInstance this instance's name in the Events
   */
  public record Settings(boolean enabled, Duration refreshInterval, String reportingInstance) {
    public Settings {
      Objects.requireNonNull(refreshInterval, "refreshInterval");
      Objects.requireNonNull(reportingInstance, "reportingInstance");
      if (reportingInstance.length() > MAX_INSTANCE) {
        reportingInstance = reportingInstance.substring(0, MAX_INSTANCE);
      }
    }
  }

  private final KubernetesClient client;
  private final Settings settings;
  private final WriteRateLimiter limiter;
  private final WriterMetrics metrics;
  private final Clock clock;
  private final BooleanSupplier mayWrite;
  private final NoticeLog noticeLog;
  private final ThreadPoolExecutor sender;

  /**
   * A writer; its thread starts with the first notice.
   *
   * @param limiter the token bucket of Event writes (not the one of record writes)
   * @param mayWrite whether this instance may write now (the leader, not shutting down)
   */
  public EventWriter(
      KubernetesClient client,
      Settings settings,
      WriteRateLimiter limiter,
      WriterMetrics metrics,
      Clock clock,
      BooleanSupplier mayWrite) {
    this.client = client;
    this.settings = settings;
    this.limiter = limiter;
    this.metrics = metrics;
    this.clock = clock;
    this.mayWrite = mayWrite;
    this.noticeLog = new NoticeLog(settings.refreshInterval());
    this.sender =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(QUEUE),
            r -> {
              Thread t = new Thread(r, "cairn-record-writer-events");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Notes that a condition holds now; records it as an Event if that is due. Never blocks on I/O.
   */
  public void observe(Notice notice) {
    if (!settings.enabled() || !mayWrite.getAsBoolean()) {
      return;
    }
    Instant now = clock.instant();
    int occurrence;
    synchronized (noticeLog) {
      occurrence = noticeLog.observe(notice, now);
    }
    if (occurrence == 0) {
      return;
    }
    try {
      sender.execute(() -> send(notice, occurrence));
    } catch (RejectedExecutionException e) {
      forget(notice);
      metrics.event(notice.reason().text(), "dropped");
    }
  }

  /** The number of Events waiting to be sent. */
  public int queued() {
    return sender.getQueue().size();
  }

  /** Stops sending; Events still queued are dropped. */
  @Override
  public void close() {
    sender.shutdownNow();
  }

  private void forget(Notice notice) {
    synchronized (noticeLog) {
      noticeLog.forget(notice);
    }
  }

  private void send(Notice notice, int occurrence) {
    try {
      limiter.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      forget(notice);
      return;
    }
    if (!mayWrite.getAsBoolean()) {
      forget(notice);
      return;
    }
    String reason = notice.reason().text();
    Instant now = clock.instant();
    try {
      client
          .events()
          .v1()
          .events()
          .inNamespace(notice.namespace())
          .resource(event(notice, now))
          .create();
      metrics.event(reason, "created");
      log.atDebug()
          .addKeyValue("event", notice.namespace() + "/" + notice.eventName())
          .addKeyValue("reason", reason)
          .addKeyValue("regarding", notice.regarding())
          .log("recorded Event {} on {}", reason, notice.regarding());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        refresh(notice, occurrence, now);
      } else {
        failed(notice, e);
      }
    }
  }

  /** The Event exists already (recorded earlier, or by another instance): bump its series. */
  private void refresh(Notice notice, int occurrence, Instant now) {
    String patch =
        client
            .getKubernetesSerialization()
            .asJson(
                Map.of(
                    "series",
                    Map.of(
                        "count",
                        Math.max(2, occurrence),
                        "lastObservedTime",
                        MICRO_TIME.format(now))));
    try {
      client
          .events()
          .v1()
          .events()
          .inNamespace(notice.namespace())
          .withName(notice.eventName())
          .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      metrics.event(notice.reason().text(), "refreshed");
    } catch (KubernetesClientException e) {
      failed(notice, e);
    }
  }

  /**
   * A refused or failed Event. A transient failure (network, 5xx, 429) is forgotten, so the next
   * observation tries again; a refusal (403, 422, ...) is kept as recorded, so it is tried again
   * only after the refresh interval instead of at every plan.
   */
  private void failed(Notice notice, KubernetesClientException e) {
    int code = e.getCode();
    boolean refused = code >= 400 && code < 500 && code != 429;
    if (!refused) {
      forget(notice);
    }
    metrics.event(notice.reason().text(), "failed");
    log.atWarn()
        .addKeyValue("event", notice.namespace() + "/" + notice.eventName())
        .addKeyValue("reason", notice.reason().text())
        .addKeyValue("code", code)
        .addKeyValue("error", e.getMessage())
        .log(
            "could not record an Event on {}; trying again {}",
            notice.regarding(),
            refused ? "after " + settings.refreshInterval() : "when next observed");
  }

  private Event event(Notice notice, Instant now) {
    return new EventBuilder()
        .withNewMetadata()
        .withNamespace(notice.namespace())
        .withName(notice.eventName())
        .endMetadata()
        .withRegarding(reference(notice.regarding()))
        .withRelated(notice.related() == null ? null : reference(notice.related()))
        .withType("Warning")
        .withReason(notice.reason().text())
        .withNote(notice.note())
        .withAction(notice.action())
        .withReportingController(REPORTING_CONTROLLER)
        .withReportingInstance(settings.reportingInstance())
        .withEventTime(new MicroTime(MICRO_TIME.format(now)))
        .build();
  }

  private static ObjectReference reference(Notice.Subject s) {
    return new ObjectReferenceBuilder()
        .withApiVersion(s.apiVersion())
        .withKind(s.kind())
        .withNamespace(s.namespace())
        .withName(s.name())
        .withUid(s.uid())
        .build();
  }
}
