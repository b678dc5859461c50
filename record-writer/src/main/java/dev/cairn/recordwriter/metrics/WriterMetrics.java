package dev.cairn.recordwriter.metrics;

import dev.cairn.recordwriter.plan.Conflict;
import dev.cairn.recordwriter.plan.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The record-writer's meters, all under {@code cairn.writer}. Counters count events once (a
 * conflict or a rejected endpoint is counted when first seen, not at every resync).
 */
public final class WriterMetrics {

  private final MeterRegistry registry;

  /** Meters in this registry. */
  public WriterMetrics(MeterRegistry registry) {
    this.registry = registry;
    initialiseCounters();
  }

  private static final List<String> RESULTS =
      List.of("ok", "conflict", "not_found", "invalid", "error");

  /**
   * The counters an alert looks at, created at 0 for every value they can take, so that Prometheus
   * sees the first event as an increase (a counter created by its first increment would enter at 1,
   * and {@code increase()} would miss it).
   */
  private void initialiseCounters() {
    for (String result : RESULTS) {
      for (String operation : List.of("create", "update", "delete")) {
        writes(operation, result);
      }
      for (String operation : List.of("create", "update", "release", "delete")) {
        ingressWrites(operation, result);
      }
      for (String operation : List.of("create", "update")) {
        gslbWrites(operation, result);
      }
      statusWrites(result);
    }
    for (String kind : List.of("DNSEndpoint", "Gslb")) {
      schemaRejectedCounter(kind);
    }
    endpointsRejected();
    decisionsRejected();
    for (Outcome.StaleSinceReset.Cause cause : Outcome.StaleSinceReset.Cause.values()) {
      staleSinceResets(cause.name());
    }
    for (Conflict.Kind kind : Conflict.Kind.values()) {
      foreignRefused(kind.name().toLowerCase(Locale.ROOT));
    }
  }

  /**
   * The time from the Kubernetes event behind a decision (its {@code cairn-event-time} header) to
   * the successful write of the DNSEndpoint it changed: the whole pipeline, as a user sees it.
   *
   * @param operation {@code create}, {@code update} or {@code delete}
   * @param latency from the event to the end of the write
   */
  public void eventToWrite(String operation, Duration latency) {
    Timer.builder("cairn.writer.event.to.write")
        .description(
            "From the Kubernetes event behind a decision to the DNSEndpoint write it caused")
        .tag("operation", operation)
        .publishPercentiles(0.5, 0.99)
        .publishPercentileHistogram()
        .register(registry)
        .record(latency.isNegative() ? Duration.ZERO : latency);
  }

  /**
   * One API write and its result.
   *
   * @param operation {@code create}, {@code update} or {@code delete}
   * @param result {@code ok}, {@code conflict}, {@code not_found}, {@code invalid}, {@code error}
   * @param latency how long the call took
   */
  public void write(String operation, String result, Duration latency) {
    writes(operation, result).increment();
    Timer.builder("cairn.writer.apply.latency")
        .description("Latency of DNSEndpoint writes")
        .tag("operation", operation)
        .register(registry)
        .record(latency);
    if (result.equals("conflict")) {
      Counter.builder("cairn.writer.conflicts")
          .description("Writes refused with 409 (stale resourceVersion or name taken); re-planned")
          .tag("operation", operation)
          .register(registry)
          .increment();
    }
  }

  /**
   * One write of a Gslb's embedded Ingress and its result.
   *
   * @param operation {@code create}, {@code update}, {@code release} or {@code delete}
   * @param result {@code ok}, {@code conflict}, {@code not_found}, {@code invalid} or {@code error}
   *     (a write not sent, as by a replica that is not the leader, is not counted)
   * @param latency how long the call took
   */
  public void ingressWrite(String operation, String result, Duration latency) {
    ingressWrites(operation, result).increment();
    Timer.builder("cairn.writer.ingress.write.latency")
        .description("Latency of embedded Ingress writes")
        .tag("operation", operation)
        .register(registry)
        .record(latency);
  }

  /**
   * One create or update of the Gslb of an annotated Ingress and its result.
   *
   * @param operation {@code create} or {@code update}
   * @param result {@code ok}, {@code conflict}, {@code not_found}, {@code invalid} or {@code error}
   *     (a write not sent, as by a replica that is not the leader, is not counted)
   * @param latency how long the call took
   */
  public void gslbWrite(String operation, String result, Duration latency) {
    gslbWrites(operation, result).increment();
    Timer.builder("cairn.writer.gslb.write.latency")
        .description("Latency of writes of the Gslbs of annotated Ingresses")
        .tag("operation", operation)
        .register(registry)
        .record(latency);
  }

  /**
   * A write that was not sent because the object failed the CRD schema check.
   *
   * @param kind {@code DNSEndpoint} or {@code Gslb} (a status)
   */
  public void schemaRejected(String kind) {
    schemaRejectedCounter(kind).increment();
  }

  /**
   * One Gslb status write and its result.
   *
   * @param result {@code ok}, {@code conflict}, {@code not_found}, {@code invalid} or {@code error}
   *     (a write not sent, as by a replica that is not the leader, is not counted)
   * @param latency how long the call took
   */
  public void statusWrite(String result, Duration latency) {
    statusWrites(result).increment();
    Timer.builder("cairn.writer.gslb.status.write.latency")
        .description("Latency of Gslb status writes")
        .register(registry)
        .record(latency);
  }

  /**
   * A Gslb status newly skipped ({@code uid_mismatch}, {@code missing_gslb}, {@code invalid}).
   * Counted when a status starts being skipped for that reason, not at every resync.
   */
  public void statusSkipped(String reason) {
    Counter.builder("cairn.writer.gslb.status.skipped")
        .description("Gslb statuses not written: uid mismatch, missing Gslb or invalid")
        .tag("reason", reason.toLowerCase(Locale.ROOT))
        .register(registry)
        .increment();
  }

  /**
   * A Kubernetes Event on a source object.
   *
   * @param reason the Event's reason ({@code Notice.Reason}): {@code RecordConflict}, {@code
   *     InvalidEndpoint}, {@code InvalidSpec}, {@code IngressConflict}, {@code InvalidIngress},
   *     {@code InvalidAnnotation} or {@code GslbConflict}
   * @param result {@code created}, {@code refreshed} (an existing Event's count bumped), {@code
   *     failed}, {@code dropped} (the send queue was full)
   */
  public void event(String reason, String result) {
    Counter.builder("cairn.writer.events")
        .description("Kubernetes Events recorded on source objects, by reason and result")
        .tag("reason", reason)
        .tag("result", result)
        .register(registry)
        .increment();
  }

  /** A newly seen refused claim ({@code foreign_object}, {@code claimed_by_other_source}, ...). */
  public void claimRefused(String kind) {
    foreignRefused(kind.toLowerCase(Locale.ROOT)).increment();
  }

  /** A newly seen rejected endpoint. */
  public void endpointRejected() {
    endpointsRejected().increment();
  }

  private Counter endpointsRejected() {
    return Counter.builder("cairn.writer.endpoints.rejected")
        .description("Desired endpoints rejected as invalid (what external-dns would drop)")
        .register(registry);
  }

  /** A newly seen decision that names no usable object. */
  public void decisionRejected() {
    decisionsRejected().increment();
  }

  private Counter decisionsRejected() {
    return Counter.builder("cairn.writer.decisions.rejected")
        .description("Decisions that name no valid DNSEndpoint")
        .register(registry);
  }

  /** A recorded grace start that was in the future or unreadable ({@code future}, ...). */
  public void staleSinceReset(String cause) {
    staleSinceResets(cause).increment();
  }

  private Counter staleSinceResets(String cause) {
    return Counter.builder("cairn.writer.stale.since.reset")
        .description("Grace-period start annotations reset to now (future or unparseable)")
        .tag("cause", cause.toLowerCase(Locale.ROOT))
        .register(registry);
  }

  /** A periodic or initial full resync. */
  public void resync(String result) {
    Counter.builder("cairn.writer.resyncs")
        .description("Full resyncs of every owned DNSEndpoint")
        .tag("result", result)
        .register(registry)
        .increment();
  }

  /**
   * How long a write waited from planned (queued) to sent: the writer's own queueing, apart from
   * the API call ({@code cairn.writer.apply.latency}).
   *
   * @param kind the write's lane: {@code dnsendpoint}, {@code ingress}, {@code gslb} or {@code
   *     gslb_status}
   */
  public void writeWait(String kind, Duration wait) {
    Timer.builder("cairn.writer.write.wait")
        .description("Time a planned write waited for its turn (priority, rate limit, concurrency)")
        .tag("kind", kind)
        .register(registry)
        .record(wait);
  }

  /** Registers a gauge read from a supplier. */
  public void gauge(String name, String description, Supplier<Number> value) {
    Gauge.builder(name, value).description(description).register(registry);
  }

  /** Registers a gauge with one tag, read from a supplier. */
  public void gauge(
      String name, String description, String tag, String tagValue, Supplier<Number> value) {
    Gauge.builder(name, value).description(description).tag(tag, tagValue).register(registry);
  }

  private Counter writes(String operation, String result) {
    return counter(
        "cairn.writer.writes",
        "DNSEndpoint writes sent to the API server, by operation and result",
        "operation",
        operation,
        "result",
        result);
  }

  private Counter ingressWrites(String operation, String result) {
    return counter(
        "cairn.writer.ingress.writes",
        "Writes of Gslbs' embedded Ingresses, by operation and result",
        "operation",
        operation,
        "result",
        result);
  }

  private Counter gslbWrites(String operation, String result) {
    return counter(
        "cairn.writer.gslb.writes",
        "Writes of the Gslbs of annotated Ingresses, by operation and result",
        "operation",
        operation,
        "result",
        result);
  }

  private Counter schemaRejectedCounter(String kind) {
    return counter(
        "cairn.writer.schema.rejected",
        "Writes not sent because they violate the CRD schema, by kind",
        "kind",
        kind);
  }

  private Counter statusWrites(String result) {
    return counter(
        "cairn.writer.gslb.status.writes",
        "Gslb status writes sent to the status subresource, by result",
        "result",
        result);
  }

  private Counter foreignRefused(String kind) {
    return counter(
        "cairn.writer.foreign.refused",
        "Claims refused because another writer or Cairn source holds the object",
        "kind",
        kind);
  }

  /** A counter with its tags, as key and value pairs. */
  private Counter counter(String name, String description, String... tags) {
    return Counter.builder(name).description(description).tags(tags).register(registry);
  }
}
