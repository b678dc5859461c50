package dev.cairn.healthprober.schedule;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.probe.AnswerEvaluator;
import dev.cairn.healthprober.probe.AnswerState;
import dev.cairn.healthprober.probe.ProbeOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the state of every (host, peer), folds each probe outcome in through the pure {@link
 * AnswerEvaluator}, and hands the records it decides to publish (and tombstones) to the {@link
 * Outbox}. Updates of one (host, peer) are atomic ({@link ConcurrentHashMap#compute}). States are
 * held per peer and host, so an outcome costs no key building; the Kafka key is made only for a
 * record.
 */
final class AnswerRecorder implements PeerProbe.Listener {

  private static final Logger log = LoggerFactory.getLogger(AnswerRecorder.class);
  private static final String PREFIX = "PeerAnswer/";

  private final Outbox outbox;
  private final String topic;
  private final Clock clock;
  private final Function<String, NavigableSet<Duration>> thresholds;
  private final BiPredicate<String, String> wanted;

  /** Geo tag to host to state. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, AnswerState>> states =
      new ConcurrentHashMap<>();

  /** Keys found on the topic at start that name no (peer, host): withdrawn at the first chance. */
  private final Set<String> strays = ConcurrentHashMap.newKeySet();

  /**
   * @param outbox where records go
   * @param topic the full topic name
   * @param clock the clock
   * @param thresholds the thresholds of a host, {@code null} when the host is not probed
   * @param wanted whether (geoTag, host) is still probed; answers for others are dropped
   */
  AnswerRecorder(
      Outbox outbox,
      String topic,
      Clock clock,
      Function<String, NavigableSet<Duration>> thresholds,
      BiPredicate<String, String> wanted) {
    this.outbox = outbox;
    this.topic = topic;
    this.clock = clock;
    this.thresholds = thresholds;
    this.wanted = wanted;
  }

  /** The Kafka key of a (peer, host). */
  static String key(String geoTag, String host) {
    return PREFIX + geoTag + "/" + host;
  }

  private ConcurrentHashMap<String, AnswerState> of(String geoTag) {
    return states.computeIfAbsent(geoTag, g -> new ConcurrentHashMap<>());
  }

  /** Takes over what was published before a restart, so success and failure times carry on. */
  void seed(Map<String, PeerAnswer> published) {
    published.forEach(
        (key, answer) -> {
          String[] parts = parse(key);
          if (parts == null) {
            strays.add(key);
          } else {
            of(parts[0]).putIfAbsent(parts[1], AnswerState.of(answer));
          }
        });
  }

  @Override
  public Instant onOutcome(String geoTag, String host, ProbeOutcome outcome) {
    NavigableSet<Duration> t = thresholds.apply(host);
    if (t == null || !wanted.test(geoTag, host)) {
      return null;
    }
    Instant now = clock.instant();
    AnswerState state =
        of(geoTag)
            .compute(
                host,
                (h, previous) -> {
                  AnswerEvaluator.Evaluation e =
                      AnswerEvaluator.evaluate(host, geoTag, previous, outcome, t, now);
                  if (e.publish() != null) {
                    outbox.put(topic, key(geoTag, host), e.publish());
                    log.atDebug()
                        .addKeyValue("peer", geoTag)
                        .addKeyValue("host", host)
                        .addKeyValue("status", e.publish().status())
                        .addKeyValue("ipv4", e.publish().ipv4())
                        .addKeyValue("ipv6", e.publish().ipv6())
                        .addKeyValue("reason", e.reason())
                        .addKeyValue("detail", outcome.detail())
                        .log("peer answer published");
                  }
                  return e.state();
                });
    return AnswerEvaluator.revisitAt(state, t);
  }

  /**
   * Withdraws (tombstones) every key whose (peer, host) is not to be kept.
   *
   * @param keep whether a (geoTag, host) stays
   * @return how many were withdrawn
   */
  int withdraw(BiPredicate<String, String> keep) {
    int withdrawn = 0;
    for (String key : strays) {
      if (strays.remove(key)) {
        outbox.put(topic, key, null);
        withdrawn++;
        log.atDebug().addKeyValue("key", key).log("peer answer withdrawn");
      }
    }
    for (Map.Entry<String, ConcurrentHashMap<String, AnswerState>> peer : states.entrySet()) {
      String geoTag = peer.getKey();
      Iterator<Map.Entry<String, AnswerState>> it = peer.getValue().entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, AnswerState> e = it.next();
        if (keep.test(geoTag, e.getKey())) {
          continue;
        }
        if (peer.getValue().remove(e.getKey(), e.getValue())) {
          String key = key(geoTag, e.getKey());
          outbox.put(topic, key, null);
          withdrawn++;
          log.atDebug().addKeyValue("key", key).log("peer answer withdrawn");
        }
      }
    }
    return withdrawn;
  }

  /** {geoTag, host} of a key, or {@code null} when it is not a peer-answer key. */
  static String[] parse(String key) {
    if (!key.startsWith(PREFIX)) {
      return null;
    }
    String rest = key.substring(PREFIX.length());
    int slash = rest.indexOf('/');
    if (slash <= 0 || slash == rest.length() - 1) {
      return null;
    }
    return new String[] {rest.substring(0, slash), rest.substring(slash + 1)};
  }

  /** The current state of a (peer, host), {@code null} if none. */
  AnswerState state(String geoTag, String host) {
    Map<String, AnswerState> peer = states.get(geoTag);
    return peer == null ? null : peer.get(host);
  }

  /** The number of (host, peer) states. */
  int size() {
    int n = 0;
    for (Map<String, AnswerState> peer : states.values()) {
      n += peer.size();
    }
    return n;
  }
}
