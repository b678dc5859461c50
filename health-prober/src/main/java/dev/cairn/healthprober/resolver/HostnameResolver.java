package dev.cairn.healthprober.resolver;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.host.Finding;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.TopologyView;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.ProbeOutcome;
import dev.cairn.healthprober.probe.RecordType;
import dev.cairn.healthprober.resolution.HostnameTargets;
import dev.cairn.healthprober.resolution.ResolutionEvaluator;
import dev.cairn.healthprober.resolution.ResolutionKey;
import dev.cairn.healthprober.resolution.ResolutionPlan;
import dev.cairn.healthprober.resolution.ResolutionPolicy;
import dev.cairn.healthprober.resolution.ResolutionState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the hostname targets of nodes for routes that ask for it, and the load-balancer host
 * names of Ingresses and LoadBalancer Services ({@link HostnameTargets}), and publishes {@code
 * HostnameResolution}s: each (resolver, hostname) is looked up again when its answer's TTL
 * (clamped) runs out, a failed lookup keeps the last good answer marked stale and backs off, and a
 * pair that is no longer needed is withdrawn with a tombstone. Unlike k8s-direct-dns, the cache
 * honours TTLs.
 */
public final class HostnameResolver implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(HostnameResolver.class);

  /**
   * @param defaultEnabled whether routes without the annotation resolve
   * @param resolveLoadBalancerHostnames whether every Ingress's and LoadBalancer Service's
   *     load-balancer host name is resolved through {@code defaultResolver}
   * @param defaultResolver the resolver of routes without a {@code dns-server} annotation, and of
   *     load-balancer host names
   * @param policy TTL clamping and retry
   * @param queryTimeout per query
   * @param queryAttempts queries per question
   * @param tick how often due lookups are started
   */
  public record Settings(
      boolean defaultEnabled,
      boolean resolveLoadBalancerHostnames,
      String defaultResolver,
      ResolutionPolicy policy,
      Duration queryTimeout,
      int queryAttempts,
      Duration tick) {}

  private final Settings settings;
  private final TopologyView inputs;
  private final DnsLookup lookup;
  private final Outbox outbox;
  private final String topic;
  private final Clock clock;
  private final ConcurrentHashMap<ResolutionKey, ResolutionState> states =
      new ConcurrentHashMap<>();
  private final Set<ResolutionKey> inFlight = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService ticker;
  private volatile ResolutionPlan plan = ResolutionPlan.empty();
  private volatile boolean ready;
  private Set<Finding> findings = Set.of();

  public HostnameResolver(
      Settings settings,
      TopologyView inputs,
      DnsLookup lookup,
      Outbox outbox,
      String topic,
      Clock clock) {
    this.settings = settings;
    this.inputs = inputs;
    this.lookup = lookup;
    this.outbox = outbox;
    this.topic = topic;
    this.clock = clock;
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cairn-prober-resolver");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts the resolution loop. */
  public void start() {
    ticker.scheduleWithFixedDelay(
        () -> {
          try {
            tick();
          } catch (RuntimeException e) {
            log.atError().setCause(e).log("hostname resolution failed; continuing");
          }
        },
        0,
        settings.tick().toMillis(),
        TimeUnit.MILLISECONDS);
  }

  void tick() {
    if (!inputs.caughtUp()) {
      return;
    }
    Instant now = clock.instant();
    if (!ready) {
      inputs
          .takeOwnState()
          .resolutions()
          .forEach(
              (key, value) -> {
                ResolutionKey k = ResolutionKey.parse(key);
                if (k != null) {
                  states.putIfAbsent(k, ResolutionState.of(value, now));
                }
              });
    }
    if (inputs.takeTargetsDirty() || !ready) {
      replan();
    }
    ready = true;
    for (ResolutionKey key : plan.keys()) {
      ResolutionState s = states.get(key);
      if ((s == null || !s.nextAttempt().isAfter(now)) && inFlight.add(key)) {
        try {
          resolve(key);
        } catch (RuntimeException e) {
          record(
              key, ProbeOutcome.unreachable(ProbeStatus.ERROR, key.server(), null, e.toString()));
        }
      }
    }
  }

  private void replan() {
    ResolutionPlan next =
        HostnameTargets.plan(
            inputs.routes(),
            inputs.services(),
            inputs.gslbs(),
            inputs.nodes(),
            settings.defaultEnabled(),
            settings.resolveLoadBalancerHostnames(),
            settings.defaultResolver());
    for (Finding f : next.findings()) {
      if (!findings.contains(f)) {
        log.atWarn()
            .addKeyValue("object", f.object())
            .addKeyValue("field", f.problem().field())
            .addKeyValue("value", f.problem().value())
            .log("host name not resolved: {}", f.problem().reason());
      }
    }
    findings = new HashSet<>(next.findings());
    if (!next.keys().equals(plan.keys())) {
      log.atInfo().addKeyValue("hostnames", next.keys().size()).log("hostname targets changed");
    }
    plan = next;
    for (ResolutionKey key : Set.copyOf(states.keySet())) {
      if (!next.keys().contains(key)) {
        states.remove(key);
        outbox.put(topic, key.key(), null);
        log.atInfo().addKeyValue("key", key.key()).log("hostname resolution withdrawn");
      }
    }
  }

  private void resolve(ResolutionKey key) {
    ServerAddress.Result server = ServerAddress.parse(key.server(), ServerAddress.DNS_PORT);
    if (server.error() != null) {
      record(
          key,
          ProbeOutcome.unreachable(
              ProbeStatus.ERROR, key.server(), null, "unusable resolver: " + server.error()));
      return;
    }
    var servers = java.util.List.of(server.address());
    CompletableFuture<DnsLookup.Answer> a =
        lookup.query(
            lookup.client().encode(key.hostname(), RecordType.A, true),
            servers,
            0,
            settings.queryAttempts(),
            settings.queryTimeout(),
            "",
            null);
    CompletableFuture<DnsLookup.Answer> aaaa =
        lookup.query(
            lookup.client().encode(key.hostname(), RecordType.AAAA, true),
            servers,
            0,
            settings.queryAttempts(),
            settings.queryTimeout(),
            "",
            null);
    a.thenCombine(aaaa, (ra, rb) -> ProbeOutcome.combine(ra.result(), rb.result(), key.server()))
        .whenComplete(
            (outcome, error) ->
                record(
                    key,
                    error == null
                        ? outcome
                        : ProbeOutcome.unreachable(
                            ProbeStatus.ERROR, key.server(), null, error.toString())));
  }

  private void record(ResolutionKey key, ProbeOutcome outcome) {
    try {
      if (!plan.keys().contains(key)) {
        return;
      }
      Instant now = clock.instant();
      states.compute(
          key,
          (k, previous) -> {
            ResolutionEvaluator.Result r =
                ResolutionEvaluator.evaluate(k, previous, outcome, settings.policy(), now);
            if (r.publish() != null) {
              outbox.put(topic, k.key(), r.publish());
              boolean changed =
                  previous == null
                      || previous.published() == null
                      || previous.published().status() != r.publish().status()
                      || previous.published().stale() != r.publish().stale()
                      || !previous.published().ipv4().equals(r.publish().ipv4())
                      || !previous.published().ipv6().equals(r.publish().ipv6());
              if (changed) {
                log.atInfo()
                    .addKeyValue("key", k.key())
                    .addKeyValue("status", r.publish().status())
                    .addKeyValue("ipv4", r.publish().ipv4())
                    .addKeyValue("ipv6", r.publish().ipv6())
                    .addKeyValue("stale", r.publish().stale())
                    .addKeyValue("detail", outcome.detail())
                    .log("hostname resolution changed");
              }
            }
            return r.state();
          });
    } finally {
      inFlight.remove(key);
    }
  }

  /** The current plan. */
  public ResolutionPlan plan() {
    return plan;
  }

  /** The state of a key, {@code null} if none. */
  public ResolutionState state(ResolutionKey key) {
    return states.get(key);
  }

  /** True once the first plan was computed. */
  public boolean ready() {
    return ready;
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }
}
