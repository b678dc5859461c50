package dev.cairn.dnsresponder.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * The responder's Micrometer meters.
 *
 * <ul>
 *   <li>{@code responder.queries} (counter; tags {@code rcode}, {@code qtype}, {@code transport}):
 *       answered queries; qtypes other than A, AAAA, CNAME, TXT, SOA, NS and ANY count as {@code
 *       OTHER}
 *   <li>{@code responder.query.latency} (timer with percentile histogram): parse to encoded
 *       response
 *   <li>{@code responder.queries.dropped} (counter): unparseable datagrams and messages that were
 *       responses themselves
 *   <li>{@code responder.responses.rate.limited} (counter; tag {@code action} = {@code slip} or
 *       {@code drop})
 *   <li>{@code responder.snapshot.rebuild.failures} (counter)
 *   <li>{@code responder.snapshot.rebuilds} (timer; tag {@code outcome} = {@code swapped}, {@code
 *       unchanged} or {@code failed}): each rebuild after a DNSEndpoint change, listing, building
 *       and compiling included
 *   <li>{@code responder.snapshot.rebuild.names} (distribution summary): the names a swapped
 *       rebuild changed (every name for a build from nothing)
 *   <li>{@code responder.snapshot.age}, {@code .names}, {@code .records}, {@code .problems}
 *       (gauges, registered by the zone cache)
 * </ul>
 */
public final class ResponderMetrics {

  /** The question types counted by name; every other type counts as {@code OTHER} (bucket 0). */
  private static final int[] TYPE_BUCKETS = {
    0, Type.A, Type.AAAA, Type.CNAME, Type.TXT, Type.SOA, Type.NS, Type.ANY
  };

  /** Query counters sit in an array (no boxing per query) for rcodes below this: all we send. */
  private static final int ARRAY_RCODES = 32;

  private final MeterRegistry registry;
  private final Timer latency;
  private final Counter dropped;
  private final Counter slipped;
  private final Counter rateDropped;
  private final Counter rebuildFailures;
  private final Timer rebuildsSwapped;
  private final Timer rebuildsUnchanged;
  private final Timer rebuildsFailed;
  private final DistributionSummary rebuildNames;

  // By (rcode, qtype bucket, transport); filled on first use.
  private final AtomicReferenceArray<Counter> queries =
      new AtomicReferenceArray<>(ARRAY_RCODES * TYPE_BUCKETS.length * 2);
  private final ConcurrentHashMap<Integer, Counter> otherQueries = new ConcurrentHashMap<>();

  public ResponderMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.latency =
        Timer.builder("responder.query.latency")
            .description("Time from a parsed query to its encoded response")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(1_000))
            .maximumExpectedValue(Duration.ofMillis(100))
            .register(registry);
    this.dropped =
        Counter.builder("responder.queries.dropped")
            .description("Datagrams dropped: unparseable, or responses rather than queries")
            .register(registry);
    this.slipped = rateLimited("slip");
    this.rateDropped = rateLimited("drop");
    this.rebuildFailures =
        Counter.builder("responder.snapshot.rebuild.failures")
            .description("Snapshot rebuilds that failed; the previous view kept serving")
            .register(registry);
    this.rebuildsSwapped = rebuilds("swapped");
    this.rebuildsUnchanged = rebuilds("unchanged");
    this.rebuildsFailed = rebuilds("failed");
    this.rebuildNames =
        DistributionSummary.builder("responder.snapshot.rebuild.names")
            .description("Names a rebuild changed (every name when built from nothing)")
            .register(registry);
  }

  private Timer rebuilds(String outcome) {
    return Timer.builder("responder.snapshot.rebuilds")
        .description("Rebuilds of the served view after DNSEndpoint changes, by outcome")
        .tag("outcome", outcome)
        .register(registry);
  }

  private Counter rateLimited(String action) {
    return Counter.builder("responder.responses.rate.limited")
        .description("Responses withheld by response rate limiting")
        .tag("action", action)
        .register(registry);
  }

  /** The registry, for gauges owned by other components. */
  public MeterRegistry registry() {
    return registry;
  }

  /** Counts an answered query and its latency. */
  public void answered(int rcode, int qtype, boolean udp, long nanos) {
    int bucket = typeBucket(qtype);
    int index = (rcode * TYPE_BUCKETS.length + bucket) * 2 + (udp ? 1 : 0);
    Counter counter;
    if (rcode >= 0 && rcode < ARRAY_RCODES) {
      counter = queries.get(index);
      if (counter == null) {
        counter = register(rcode, bucket, udp); // racing threads get the same counter
        queries.set(index, counter);
      }
    } else {
      counter = otherQueries.computeIfAbsent(index, k -> register(rcode, bucket, udp));
    }
    counter.increment();
    latency.record(nanos, TimeUnit.NANOSECONDS);
  }

  private Counter register(int rcode, int bucket, boolean udp) {
    int type = TYPE_BUCKETS[bucket];
    return Counter.builder("responder.queries")
        .description("Queries answered, by response code and question type")
        .tag("rcode", Rcode.string(rcode))
        .tag("qtype", type == 0 ? "OTHER" : Type.string(type))
        .tag("transport", udp ? "udp" : "tcp")
        .register(registry);
  }

  /** Counts a dropped message. */
  public void dropped() {
    dropped.increment();
  }

  /** Counts a rate-limited response: slipped (sent truncated) or dropped. */
  public void rateLimited(boolean slip) {
    (slip ? slipped : rateDropped).increment();
  }

  /** Counts a failed rebuild. */
  public void rebuildFailed() {
    rebuildFailures.increment();
  }

  /** Times a rebuild that swapped in a view changing {@code names} names. */
  public void rebuildSwapped(long nanos, int names) {
    rebuildsSwapped.record(nanos, TimeUnit.NANOSECONDS);
    rebuildNames.record(names);
  }

  /** Times a rebuild that found nothing to change. */
  public void rebuildUnchanged(long nanos) {
    rebuildsUnchanged.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Times a rebuild that failed (the previous view kept serving). */
  public void rebuildFailedAfter(long nanos) {
    rebuildsFailed.record(nanos, TimeUnit.NANOSECONDS);
  }

  private static int typeBucket(int qtype) {
    return switch (qtype) {
      case Type.A -> 1;
      case Type.AAAA -> 2;
      case Type.CNAME -> 3;
      case Type.TXT -> 4;
      case Type.SOA -> 5;
      case Type.NS -> 6;
      case Type.ANY -> 7;
      default -> 0;
    };
  }
}
