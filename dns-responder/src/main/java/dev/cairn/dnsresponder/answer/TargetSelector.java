package dev.cairn.dnsresponder.answer;

import dev.cairn.dnsresponder.zone.RecordSet;
import dev.cairn.dnsresponder.zone.Target;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Picks the targets one answer carries from an address set: geo filtering first, then weights, then
 * the cap on answer records.
 *
 * <ul>
 *   <li><b>geoip</b> ({@code strategy: geoip}): for each configured field in order, the client's
 *       value is looked up; the targets whose tag (from the endpoint's labels) or, without a tag,
 *       whose own database value equals it are kept. The first field that keeps any target wins. No
 *       match (or no database) keeps every target.
 *   <li><b>weights</b> (every target has a weight label): see {@link WeightedAnswer}.
 *   <li><b>no weights</b>: every target, in a random order (a fresh shuffle per answer).
 * </ul>
 *
 * Thread-safe when the random generator is.
 */
public final class TargetSelector {

  private final RandomGenerator random;
  private final GeoLocator geo;
  private final List<String> geoFields;
  private final WeightedAnswer mode;
  private final int maxRecords;

  /**
   * @param random the source of randomness (seeded in tests)
   * @param geo the geo database
   * @param geoFields the database fields tried in order
   * @param mode how weighted sets are answered
   * @param maxRecords the most targets one answer carries
   */
  public TargetSelector(
      RandomGenerator random,
      GeoLocator geo,
      List<String> geoFields,
      WeightedAnswer mode,
      int maxRecords) {
    this.random = Objects.requireNonNull(random, "random");
    this.geo = Objects.requireNonNull(geo, "geo");
    this.geoFields = List.copyOf(geoFields);
    this.mode = Objects.requireNonNull(mode, "mode");
    if (maxRecords < 1) {
      throw new IllegalArgumentException("maxRecords must be positive");
    }
    this.maxRecords = maxRecords;
  }

  /**
   * The targets for one answer.
   *
   * @param set an A or AAAA set
   * @param client the address geo routing uses (ECS address or source), may be {@code null}
   * @return the targets and, when geo routing looked the client up, the prefix length the answer is
   *     valid for
   */
  public Selection select(RecordSet set, InetAddress client) {
    List<Target> targets = set.targets();
    int scope = -1;
    if (set.geoip() && client != null) {
      GeoFilter filtered = geoFilter(targets, client);
      targets = filtered.targets();
      scope = filtered.scope();
    }
    List<Target> chosen;
    if (set.weighted()) {
      chosen = mode == WeightedAnswer.ONE ? List.of(drawOne(targets)) : weightedOrder(targets);
    } else {
      chosen = shuffled(targets);
    }
    if (chosen.size() > maxRecords) {
      chosen = chosen.subList(0, maxRecords);
    }
    return new Selection(chosen, scope);
  }

  /** The most targets {@link #select} can return for {@code set}. */
  int maxAnswer(RecordSet set) {
    if (set.weighted() && mode == WeightedAnswer.ONE) {
      return 1;
    }
    return Math.min(set.targets().size(), maxRecords);
  }

  /**
   * Whether {@link #select} answers {@code set} for {@code client} with a plain shuffle (no
   * weights, no geo filter), which {@link #plainOrder} draws without building lists.
   */
  boolean isPlain(RecordSet set, InetAddress client) {
    return !set.weighted() && !(set.geoip() && client != null);
  }

  /**
   * The answer of a plain set as target indices: fills {@code order[0..n)} with a random
   * permutation drawn exactly as {@link #select} shuffles (the same calls on the generator, so the
   * same answer from the same state) and returns how many of them the answer carries.
   *
   * @param n the number of targets
   * @param order at least {@code n} ints
   */
  int plainOrder(int n, int[] order) {
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
    return Math.min(n, maxRecords);
  }

  /**
   * The targets of one answer.
   *
   * @param targets the chosen targets, in answer order
   * @param scopePrefix the ECS scope prefix length, or -1 when the answer does not depend on the
   *     client
   */
  public record Selection(List<Target> targets, int scopePrefix) {}

  private record GeoFilter(List<Target> targets, int scope) {}

  private GeoFilter geoFilter(List<Target> targets, InetAddress client) {
    int scope = -1;
    for (String field : geoFields) {
      Optional<GeoLocator.GeoMatch> here = geo.locate(client, field);
      if (here.isEmpty()) {
        continue;
      }
      scope = Math.max(scope, here.get().prefixLength());
      List<Target> kept = new ArrayList<>();
      for (Target t : targets) {
        String value = t.tag() != null ? t.tag() : geoValue(t, field);
        if (here.get().value().equals(value)) {
          kept.add(t);
        }
      }
      if (!kept.isEmpty()) {
        return new GeoFilter(kept, here.get().prefixLength());
      }
    }
    return new GeoFilter(targets, scope);
  }

  private String geoValue(Target target, String field) {
    if (target.address() == null) {
      return null;
    }
    return geo.locate(target.address(), field).map(GeoLocator.GeoMatch::value).orElse(null);
  }

  private Target drawOne(List<Target> targets) {
    Map<String, List<Target>> groups = groups(targets);
    long total = 0;
    for (List<Target> group : groups.values()) {
      total += group.get(0).weight();
    }
    List<Target> group = null;
    if (total > 0) {
      long point = random.nextLong(total);
      for (List<Target> g : groups.values()) {
        point -= g.get(0).weight();
        if (point < 0) {
          group = g;
          break;
        }
      }
    } else {
      List<List<Target>> all = new ArrayList<>(groups.values());
      group = all.get(random.nextInt(all.size()));
    }
    return group.get(group.size() == 1 ? 0 : random.nextInt(group.size()));
  }

  private List<Target> weightedOrder(List<Target> targets) {
    List<List<Target>> remaining = new ArrayList<>();
    List<List<Target>> zero = new ArrayList<>();
    for (List<Target> group : groups(targets).values()) {
      (group.get(0).weight() > 0 ? remaining : zero).add(group);
    }
    List<Target> ordered = new ArrayList<>(targets.size());
    while (!remaining.isEmpty()) {
      long total = 0;
      for (List<Target> g : remaining) {
        total += g.get(0).weight();
      }
      long point = random.nextLong(total);
      for (int i = 0; i < remaining.size(); i++) {
        point -= remaining.get(i).get(0).weight();
        if (point < 0) {
          ordered.addAll(shuffled(remaining.remove(i)));
          break;
        }
      }
    }
    for (List<Target> g : shuffled(zero)) {
      ordered.addAll(shuffled(g));
    }
    return ordered;
  }

  /** Targets grouped by tag and weight, groups in first-seen order. */
  private static Map<String, List<Target>> groups(List<Target> targets) {
    Map<String, List<Target>> groups = new LinkedHashMap<>();
    for (Target t : targets) {
      String key = (t.tag() == null ? "" : t.tag()) + '\u0000' + t.weight();
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(t);
    }
    return groups;
  }

  @SuppressWarnings("unchecked")
  private <T> List<T> shuffled(List<T> items) {
    if (items.size() < 2) {
      return items;
    }
    Object[] copy = items.toArray();
    for (int i = copy.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      Object tmp = copy[i];
      copy[i] = copy[j];
      copy[j] = tmp;
    }
    return (List<T>) Arrays.asList(copy);
  }
}
