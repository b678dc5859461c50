package dev.cairn.dnsresponder.zone;

import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.commonmodel.validation.Ttl;
import dev.cairn.commonmodel.validation.TxtText;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds a {@link ZoneSnapshot} from DNSEndpoint endpoints. Pure: the same inputs, zones and time
 * give the same snapshot, and no input can make it throw.
 *
 * <p>Inputs are taken in precedence order: older objects first ({@code created}), then by {@code
 * namespace/name}, then by endpoint index. Each rule below drops the smaller part it can and
 * records a {@link SourcedProblem}:
 *
 * <ul>
 *   <li>a name that is not a valid DNS name, is a wildcard, or lies outside every zone: the
 *       endpoint is dropped;
 *   <li>an unsupported {@code recordType} (supported: A, AAAA, CNAME, TXT): dropped. Without a
 *       {@code recordType}, address targets are published as A or AAAA by family;
 *   <li>a target that does not fit the type (a non-IPv4 in an A record, a non-IPv6 in AAAA, a CNAME
 *       with other than one valid host name): the target is dropped; an endpoint left without
 *       targets is dropped (so its name may not exist: NXDOMAIN, as no record was published);
 *   <li>the same name and type declared twice: the first declaration in precedence order wins;
 *   <li>a CNAME beside other data at the same name (RFC 1034 §3.6.2): whichever came first in
 *       precedence order wins; a CNAME at a zone apex is dropped;
 *   <li>names reserved for the glue of configured name servers cannot be redeclared;
 *   <li>weight labels that do not cover every target of an address set leave it unweighted.
 * </ul>
 *
 * <p>The one failure that refuses the whole build is a snapshot larger than {@code maxRecords}: the
 * caller then keeps serving its previous view.
 */
public final class SnapshotBuilder {

  /** The source name used for records derived from the zone configuration. */
  public static final String CONFIG_SOURCE = "config";

  /** Precedence: older objects first, then by object key, then by endpoint index. */
  static final Comparator<EndpointInput> PRECEDENCE =
      Comparator.comparing(
              EndpointInput::created, Comparator.nullsLast(Comparator.<Instant>naturalOrder()))
          .thenComparing(EndpointInput::source)
          .thenComparingInt(EndpointInput::index);

  /**
   * Limits and defaults for a build.
   *
   * @param defaultTtlSeconds the TTL for endpoints without a positive {@code recordTTL}
   * @param maxRecords the largest number of records accepted; more refuses the build
   */
  public record Limits(long defaultTtlSeconds, int maxRecords) {
    public Limits {
      if (Ttl.check("default-ttl", defaultTtlSeconds).isPresent()) {
        throw new IllegalArgumentException("default TTL " + defaultTtlSeconds + " is out of range");
      }
      if (maxRecords < 1) {
        throw new IllegalArgumentException("maxRecords must be positive");
      }
    }
  }

  private SnapshotBuilder() {}

  /**
   * Builds a snapshot.
   *
   * @param zones the configured zones
   * @param inputs every endpoint of every selected object, in any order
   * @param limits the default TTL and the size cap
   * @param now the build time (the SOA serial)
   */
  public static BuildResult build(
      Zones zones, List<EndpointInput> inputs, Limits limits, Instant now) {
    return build(zones, inputs, limits, now, null);
  }

  /**
   * Builds a snapshot from the one served now: only what the endpoints that changed since it touch
   * is worked out again, and the result equals a build from nothing.
   *
   * <p>An endpoint's records and problems depend on nothing but the endpoint, the zones and the
   * limits; which declaration wins a name depends only on the declarations of that name. So {@code
   * previous} keeps, besides its nodes, what each endpoint derived and every name's declarations in
   * precedence order ({@link Index}). This build compares the endpoints with those of {@code
   * previous}, object by object (the same endpoint object, or an equal one, counts as unchanged),
   * and goes on as {@link #update}. With nothing changed, the result is {@code previous} itself
   * (the same serial). Comparing every object is the one part that grows with the zone; a source
   * that knows what changed calls {@link #update} instead.
   *
   * <p>Endpoints are told apart by object and index ({@code source}, {@code index}), which the
   * responder's sources keep unique; a list in which two endpoints share both is built from nothing
   * and, as in the sort of precedence, the earlier in the list goes first among equals.
   *
   * @param previous the snapshot served now, or {@code null}; a snapshot built for other zones or
   *     limits is not reused
   */
  public static BuildResult build(
      Zones zones, List<EndpointInput> inputs, Limits limits, Instant now, ZoneSnapshot previous) {
    Map<String, List<EndpointInput>> objects = new LinkedHashMap<>();
    for (EndpointInput input : inputs) {
      objects.computeIfAbsent(input.source(), s -> new ArrayList<>(2)).add(input);
    }
    for (List<EndpointInput> endpoints : objects.values()) {
      if (!uniqueIndexes(endpoints)) {
        return new Build(zones, limits, null, null).fromNothingInListOrder(inputs, now);
      }
    }
    Index base = canUpdate(previous, zones, limits) ? previous.index() : null;
    Map<String, List<EndpointInput>> changed = objects;
    if (base != null) {
      changed = new LinkedHashMap<>();
      for (Map.Entry<String, List<EndpointInput>> e : objects.entrySet()) {
        if (!unchanged(base.objects.get(e.getKey()), e.getValue())) {
          changed.put(e.getKey(), e.getValue());
        }
      }
      Map<String, List<EndpointInput>> gone = new LinkedHashMap<>();
      base.objects.forEach(
          (source, held) -> {
            if (!objects.containsKey(source)) {
              gone.put(source, List.of());
            }
          });
      changed.putAll(gone);
    }
    return new Build(zones, limits, base, base == null ? null : previous).run(changed, now);
  }

  /**
   * Builds a snapshot from {@code previous} and what changed since it, object by object: the cost
   * grows with what changed, not with the zone. The result equals a build from nothing over {@code
   * previous}'s endpoints with those of the changed objects replaced; with nothing changed, it is
   * {@code previous} itself.
   *
   * @param previous a snapshot for which {@link #canUpdate} holds
   * @param changed for each object ({@code namespace/name}) that changed, its endpoints now, in any
   *     order (an empty list when it is gone or declares none); every endpoint's {@code source} is
   *     its object and no index repeats within an object
   * @throws IllegalArgumentException when {@code previous} cannot be updated or an object's
   *     endpoints are not as described
   */
  public static BuildResult update(
      Zones zones,
      Limits limits,
      Instant now,
      ZoneSnapshot previous,
      Map<String, List<EndpointInput>> changed) {
    if (!canUpdate(previous, zones, limits)) {
      throw new IllegalArgumentException(
          "the snapshot cannot be updated; build it from its inputs");
    }
    for (Map.Entry<String, List<EndpointInput>> e : changed.entrySet()) {
      for (EndpointInput input : e.getValue()) {
        if (!input.source().equals(e.getKey())) {
          throw new IllegalArgumentException(
              "an endpoint of " + input.source() + " was given as one of " + e.getKey());
        }
      }
      if (!uniqueIndexes(e.getValue())) {
        throw new IllegalArgumentException(
            "the endpoints given for " + e.getKey() + " repeat an index");
      }
    }
    return new Build(zones, limits, previous.index(), previous).run(changed, now);
  }

  /**
   * Whether {@link #update} can build from {@code previous}: it was built for these zones and
   * limits, with endpoints that were unique by object and index.
   */
  public static boolean canUpdate(ZoneSnapshot previous, Zones zones, Limits limits) {
    Index index = previous == null ? null : previous.index();
    return index != null && index.zones.equals(zones) && index.limits.equals(limits);
  }

  private static boolean uniqueIndexes(List<EndpointInput> endpoints) {
    boolean positional = true; // as sources map objects: the endpoint at position i has index i
    for (int i = 0; i < endpoints.size() && positional; i++) {
      positional = endpoints.get(i).index() == i;
    }
    if (positional) {
      return true;
    }
    Set<Integer> seen = new HashSet<>();
    for (EndpointInput input : endpoints) {
      if (!seen.add(input.index())) {
        return false;
      }
    }
    return true;
  }

  /** Whether an object's endpoints are those held for it (the same or equal, index by index). */
  private static boolean unchanged(Held[] held, List<EndpointInput> endpoints) {
    if (held == null || held.length != endpoints.size()) {
      return false;
    }
    for (EndpointInput input : endpoints) {
      Held h = find(held, input.index());
      if (h == null || !(h.input == input || h.input.equals(input))) {
        return false;
      }
    }
    return true;
  }

  /** The endpoint of {@code held} with {@code index}: at that position as a rule, else searched. */
  private static Held find(Held[] held, int index) {
    if (held == null) {
      return null;
    }
    if (index >= 0 && index < held.length && held[index].input.index() == index) {
      return held[index];
    }
    for (Held h : held) {
      if (h.input.index() == index) {
        return h;
      }
    }
    return null;
  }

  /** What {@code input} contributes on its own (for tests that build the same way differently). */
  static Derived derive(Zones zones, Limits limits, EndpointInput input) {
    return new Deriver(zones, limits).derive(input);
  }

  /** What the zone configuration contributes (the same). */
  static Derived deriveGlue(Zones zones, Limits limits) {
    return new Deriver(zones, limits).deriveGlue();
  }

  /**
   * What one endpoint contributes on its own, in the order the build met it: record sets it claims
   * for a name and problems it has.
   */
  record Derived(List<Step> steps) {}

  /** One contribution of an endpoint. */
  sealed interface Step permits Claim, Reported {}

  /** A record set an endpoint declares at a name; {@code path} names it in a conflict. */
  record Claim(String name, RecordSet set, String path) implements Step {}

  /** A problem found in an endpoint. */
  record Reported(SourcedProblem problem) implements Step {}

  /**
   * An endpoint as the index holds it, compared by identity: what it derived, and its place among
   * endpoints of equal precedence ({@code seq}: its position in a list with duplicates).
   */
  private static final class Held {
    private final EndpointInput input;
    private final int seq;
    private final Derived derived;

    Held(EndpointInput input, int seq, Derived derived) {
      this.input = input;
      this.seq = seq;
      this.derived = derived;
    }
  }

  /** Precedence of held endpoints: {@link #PRECEDENCE}, then the position among equals. */
  private static final Comparator<Held> HELD_ORDER =
      Comparator.comparing((Held h) -> h.input, PRECEDENCE).thenComparingInt(h -> h.seq);

  /**
   * One declaration of a name: step {@code step} of an endpoint, or of the zone configuration when
   * {@code held} is {@code null} (which declares first).
   */
  private record Contribution(Held held, int step, Claim claim) {}

  /** The order in which declarations of one name are applied: configuration, then precedence. */
  private static final Comparator<Contribution> DECLARATION_ORDER =
      (a, b) -> {
        if (a.held() == null || b.held() == null) {
          if (a.held() != null) {
            return 1;
          }
          if (b.held() != null) {
            return -1;
          }
          return Integer.compare(a.step(), b.step());
        }
        int byHeld = a.held() == b.held() ? 0 : HELD_ORDER.compare(a.held(), b.held());
        return byHeld != 0 ? byHeld : Integer.compare(a.step(), b.step());
      };

  /**
   * One name's declarations in the order they apply, the sets that won, the conflict of each
   * declaration that lost (by position; {@code null} where it won) and the records it holds.
   */
  private static final class NameState {
    private final List<Contribution> declarations;
    private final EnumMap<RecordKind, RecordSet> sets;
    private final SourcedProblem[] conflicts;
    private final int recordCount;

    private NameState(
        List<Contribution> declarations,
        EnumMap<RecordKind, RecordSet> sets,
        SourcedProblem[] conflicts,
        int recordCount) {
      this.declarations = declarations;
      this.sets = sets;
      this.conflicts = conflicts;
      this.recordCount = recordCount;
    }

    /** Applies the declarations in order: the first of a name and type wins, CNAMEs stand alone. */
    static NameState resolve(String name, List<Contribution> declarations) {
      EnumMap<RecordKind, RecordSet> node = new EnumMap<>(RecordKind.class);
      SourcedProblem[] conflicts = new SourcedProblem[declarations.size()];
      int records = 0;
      for (int i = 0; i < declarations.size(); i++) {
        Claim claim = declarations.get(i).claim();
        RecordSet set = claim.set();
        RecordSet existing = node.get(set.kind());
        String conflict = null;
        if (existing != null) {
          conflict = set.kind() + " " + name + " is already declared by " + existing.source();
        } else if (set.kind() == RecordKind.CNAME && !node.isEmpty()) {
          RecordSet other = node.values().iterator().next();
          conflict =
              "a CNAME cannot share "
                  + name
                  + " with the "
                  + other.kind()
                  + " declared by "
                  + other.source();
        } else if (set.kind() != RecordKind.CNAME && node.containsKey(RecordKind.CNAME)) {
          conflict =
              name + " is already a CNAME declared by " + node.get(RecordKind.CNAME).source();
        }
        if (conflict != null) {
          conflicts[i] =
              new SourcedProblem(
                  set.source(),
                  new Problem(claim.path(), name, conflict + "; the earlier declaration wins"));
          continue;
        }
        node.put(set.kind(), set);
        records += set.targets().size();
      }
      return new NameState(List.copyOf(declarations), node, conflicts, records);
    }

    boolean hasSets() {
      return !sets.isEmpty();
    }

    /** The conflict of step {@code step} of {@code held} here, or {@code null} if it won. */
    SourcedProblem conflictOf(Held held, int step) {
      for (int i = 0; i < declarations.size(); i++) {
        Contribution c = declarations.get(i);
        if (c.held() == held && c.step() == step) {
          return conflicts[i];
        }
      }
      return null;
    }
  }

  /**
   * What a snapshot's build worked out, for the next build to start from; immutable once built (a
   * build edits copies that share every part it does not change).
   */
  static final class Index {
    private final Zones zones;
    private final Limits limits;

    /** Every object's endpoints as held, by {@code source}. */
    private final PersistentMap<String, Held[]> objects;

    private final PersistentMap<String, NameState> names;

    /** Per name without records of its own: how many names with records lie below it. */
    private final PersistentMap<String, Integer> below;

    /** The problems of every endpoint that has any, in precedence order. */
    private final TreeMap<Held, List<SourcedProblem>> inputProblems;

    private final List<SourcedProblem> configProblems;
    private final int recordCount;
    private final int nextSeq;

    private Index(
        Zones zones,
        Limits limits,
        PersistentMap<String, Held[]> objects,
        PersistentMap<String, NameState> names,
        PersistentMap<String, Integer> below,
        TreeMap<Held, List<SourcedProblem>> inputProblems,
        List<SourcedProblem> configProblems,
        int recordCount,
        int nextSeq) {
      this.zones = zones;
      this.limits = limits;
      this.objects = objects;
      this.names = names;
      this.below = below;
      this.inputProblems = inputProblems;
      this.configProblems = configProblems;
      this.recordCount = recordCount;
      this.nextSeq = nextSeq;
    }

    /** Every endpoint held, in no particular order. */
    List<EndpointInput> inputs() {
      List<EndpointInput> inputs = new ArrayList<>(objects.size() * 2);
      objects.forEach(
          (source, held) -> {
            for (Held h : held) {
              inputs.add(h.input);
            }
          });
      return inputs;
    }
  }

  /** One build: from an index (incremental) or from nothing ({@code base} null). */
  private static final class Build {
    private final Zones zones;
    private final Limits limits;
    private final Index base;
    private final ZoneSnapshot previous;
    private final Deriver deriver;
    private final Set<String> apexes = new HashSet<>();

    Build(Zones zones, Limits limits, Index base, ZoneSnapshot previous) {
      this.zones = zones;
      this.limits = limits;
      this.base = base;
      this.previous = previous;
      this.deriver = new Deriver(zones, limits);
      zones.specs().forEach(z -> apexes.add(z.name()));
    }

    /**
     * From {@code base} (or nothing) with the endpoints of the {@code changed} objects replaced.
     */
    BuildResult run(Map<String, List<EndpointInput>> changed, Instant now) {
      // 1. Which endpoints are new or changed, and which are gone, by object and index.
      PersistentMap.Editor<String, Held[]> objects =
          (base == null ? PersistentMap.<String, Held[]>empty() : base.objects).edit();
      List<Held> added = new ArrayList<>();
      Set<Held> removed = Collections.newSetFromMap(new IdentityHashMap<>());
      int seq = base == null ? 0 : base.nextSeq;
      for (Map.Entry<String, List<EndpointInput>> e : changed.entrySet()) {
        Held[] old = objects.get(e.getKey());
        List<EndpointInput> endpoints = e.getValue();
        Held[] next = new Held[endpoints.size()];
        for (int i = 0; i < next.length; i++) {
          EndpointInput input = endpoints.get(i);
          Held prev = find(old, input.index());
          if (prev != null && (prev.input == input || prev.input.equals(input))) {
            next[i] = prev;
          } else {
            next[i] = new Held(input, seq++, deriver.derive(input));
            added.add(next[i]);
          }
        }
        if (old != null) {
          for (Held h : old) {
            if (find(next, h.input.index()) != h) {
              removed.add(h);
            }
          }
        }
        if (next.length == 0) {
          objects.remove(e.getKey());
        } else {
          objects.put(e.getKey(), next);
        }
      }
      if (base != null && added.isEmpty() && removed.isEmpty()) {
        return new BuildResult.Built(previous);
      }
      return resolve(added, removed, objects, seq, now, null);
    }

    /**
     * From nothing, for endpoints that may share object and index: each is its own declaration,
     * equals in precedence going in list order; no index is kept.
     */
    BuildResult fromNothingInListOrder(List<EndpointInput> inputs, Instant now) {
      List<Held> added = new ArrayList<>(inputs.size());
      int seq = 0;
      for (EndpointInput input : inputs) {
        added.add(new Held(input, seq++, deriver.derive(input)));
      }
      return resolve(added, Set.of(), null, seq, now, inputs);
    }

    /**
     * Steps 2 to 5 of a build: the names the added and removed endpoints declare resolved again,
     * their nodes, the problems. {@code objects} is null when no index is kept (then {@code given}
     * holds the inputs).
     */
    private BuildResult resolve(
        List<Held> added,
        Set<Held> removed,
        PersistentMap.Editor<String, Held[]> objects,
        int seq,
        Instant now,
        List<EndpointInput> given) {
      // 2. The names whose declarations change.
      Derived glue = base == null ? deriver.deriveGlue() : null;
      Map<String, List<Contribution>> declared = new HashMap<>();
      if (glue != null) {
        declare(declared, null, glue);
      }
      for (Held h : added) {
        declare(declared, h, h.derived);
      }
      Set<String> affected = new HashSet<>(declared.keySet());
      for (Held h : removed) {
        for (Step step : h.derived.steps()) {
          if (step instanceof Claim c) {
            affected.add(c.name());
          }
        }
      }

      // 3. Those names resolved again; the counts of the names above them.
      PersistentMap.Editor<String, NameState> names = edit(base == null ? null : base.names);
      PersistentMap.Editor<String, Integer> below = edit(base == null ? null : base.below);
      Set<Held> touched = Collections.newSetFromMap(new IdentityHashMap<>());
      touched.addAll(added);
      Set<String> nodeChanged = new HashSet<>(affected);
      if (base == null) {
        nodeChanged.addAll(apexes);
      }
      long recordCount = base == null ? 0 : base.recordCount;
      for (String name : affected) {
        NameState old = names.get(name);
        List<Contribution> declarations = new ArrayList<>();
        if (old != null) {
          for (Contribution c : old.declarations) {
            if (c.held() == null || !removed.contains(c.held())) {
              declarations.add(c);
              if (c.held() != null) {
                touched.add(c.held());
              }
            }
          }
        }
        List<Contribution> more = declared.get(name);
        if (more != null) {
          declarations.addAll(more);
        }
        declarations.sort(DECLARATION_ORDER);
        NameState next = declarations.isEmpty() ? null : NameState.resolve(name, declarations);
        recordCount += (next == null ? 0 : next.recordCount) - (old == null ? 0 : old.recordCount);
        if (next == null) {
          names.remove(name);
        } else {
          names.put(name, next);
        }
        boolean had = old != null && old.hasSets();
        boolean has = next != null && next.hasSets();
        if (had != has) {
          countBelow(below, name, has ? 1 : -1, nodeChanged);
        }
      }
      if (recordCount > limits.maxRecords()) {
        // The editors are dropped: nothing of base was changed.
        return new BuildResult.Refused(
            "the selected DNSEndpoints hold more than "
                + limits.maxRecords()
                + " records (responder.max-records)");
      }

      // 4. The nodes of the names that changed: their sets, an empty non-terminal, or none.
      PersistentMap.Editor<String, Node> nodes = edit(previous == null ? null : previous.nodeMap());
      Set<String> changedNames = new HashSet<>();
      for (String name : nodeChanged) {
        NameState state = names.get(name);
        Node current = nodes.get(name);
        Node next;
        if (state != null && state.hasSets()) {
          boolean same = current != null && !current.isEmptyNonTerminal();
          next = same && !affected.contains(name) ? current : Node.of(state.sets);
        } else if (apexes.contains(name) || count(below, name) > 0) {
          next = Node.emptyNonTerminal();
        } else {
          next = null;
        }
        if (next != current) {
          if (next == null) {
            nodes.remove(name);
          } else {
            nodes.put(name, next);
          }
          changedNames.add(name);
        }
      }

      // 5. The problems: the configuration's, then each endpoint's in precedence order.
      PersistentMap<String, NameState> resolved = names.done();
      List<SourcedProblem> configProblems =
          glue == null ? base.configProblems : List.copyOf(problemsOf(null, glue, resolved));
      TreeMap<Held, List<SourcedProblem>> inputProblems =
          base == null ? new TreeMap<>(HELD_ORDER) : new TreeMap<>(base.inputProblems);
      for (Held h : removed) {
        inputProblems.remove(h);
      }
      for (Held h : touched) {
        List<SourcedProblem> problems = problemsOf(h, h.derived, resolved);
        if (problems.isEmpty()) {
          inputProblems.remove(h);
        } else {
          inputProblems.put(h, List.copyOf(problems));
        }
      }
      List<SourcedProblem> problems = new ArrayList<>(configProblems);
      inputProblems.values().forEach(problems::addAll);

      Index index =
          objects == null
              ? null
              : new Index(
                  zones,
                  limits,
                  objects.done(),
                  resolved,
                  below.done(),
                  inputProblems,
                  configProblems,
                  (int) recordCount,
                  seq);
      return new BuildResult.Built(
          new ZoneSnapshot(
              zones,
              nodes.done(),
              given,
              problems,
              now,
              (int) recordCount,
              index,
              base == null ? null : previous,
              base == null ? null : changedNames));
    }

    private static void declare(Map<String, List<Contribution>> declared, Held h, Derived d) {
      for (int i = 0; i < d.steps().size(); i++) {
        if (d.steps().get(i) instanceof Claim c) {
          declared
              .computeIfAbsent(c.name(), n -> new ArrayList<>(1))
              .add(new Contribution(h, i, c));
        }
      }
    }

    /** Counts a name with records in or out of every name between it and its zone's apex. */
    private void countBelow(
        PersistentMap.Editor<String, Integer> below,
        String name,
        int delta,
        Set<String> nodeChanged) {
      ZoneSpec zone = zones.zoneOf(name);
      if (zone == null) {
        return; // never: only names inside a zone are declared
      }
      String parent = name;
      while (!parent.equals(zone.name())) {
        int dot = parent.indexOf('.');
        parent = dot < 0 ? "" : parent.substring(dot + 1);
        int count = count(below, parent) + delta;
        if (count == 0) {
          below.remove(parent);
        } else {
          below.put(parent, count);
        }
        nodeChanged.add(parent);
      }
    }

    private static int count(PersistentMap.Editor<String, Integer> below, String name) {
      Integer count = below.get(name);
      return count == null ? 0 : count;
    }

    /** The problems of one endpoint (or the configuration): its own, and its lost declarations. */
    private static List<SourcedProblem> problemsOf(
        Held held, Derived derived, PersistentMap<String, NameState> names) {
      List<SourcedProblem> problems = new ArrayList<>(0);
      List<Step> steps = derived.steps();
      for (int i = 0; i < steps.size(); i++) {
        Step step = steps.get(i);
        if (step instanceof Reported r) {
          problems.add(r.problem());
        } else if (step instanceof Claim c) {
          SourcedProblem conflict = names.get(c.name()).conflictOf(held, i);
          if (conflict != null) {
            problems.add(conflict);
          }
        }
      }
      return problems;
    }

    private static <K, V> PersistentMap.Editor<K, V> edit(PersistentMap<K, V> from) {
      return (from == null ? PersistentMap.<K, V>empty() : from).edit();
    }
  }

  /** Works out what one endpoint, or the zone configuration, contributes on its own. */
  private static final class Deriver {
    private final Zones zones;
    private final Limits limits;

    /** The steps of the endpoint being derived ({@link #derive}), else {@code null}. */
    private List<Step> steps;

    Deriver(Zones zones, Limits limits) {
      this.zones = zones;
      this.limits = limits;
    }

    /** What the zone configuration declares: the glue of in-zone name servers. */
    Derived deriveGlue() {
      steps = new ArrayList<>();
      try {
        addConfiguredGlue();
        return new Derived(List.copyOf(steps));
      } finally {
        steps = null;
      }
    }

    private void addConfiguredGlue() {
      for (ZoneSpec zone : zones.specs()) {
        for (int i = 0; i < zone.nameServers().size(); i++) {
          ZoneSpec.NameServer ns = zone.nameServers().get(i);
          if (zones.zoneOf(ns.name()) == null || ns.addresses().isEmpty()) {
            continue; // out-of-zone name servers need no glue from us
          }
          Map<RecordKind, List<Target>> byFamily = new EnumMap<>(RecordKind.class);
          for (int j = 0; j < ns.addresses().size(); j++) {
            String text = ns.addresses().get(j);
            String field =
                "responder.zones[" + zone.name() + "].ns[" + i + "].addresses[" + j + "]";
            Optional<IpLiteral> ip = IpLiteral.parse(text);
            if (ip.isEmpty()) {
              steps.add(
                  new Reported(
                      new SourcedProblem(
                          CONFIG_SOURCE, new Problem(field, text, "not an IP address"))));
              continue;
            }
            RecordKind kind =
                ip.get().family() == IpLiteral.Family.IPV4 ? RecordKind.A : RecordKind.AAAA;
            addUnique(byFamily.computeIfAbsent(kind, k -> new ArrayList<>()), target(ip.get()));
          }
          for (Map.Entry<RecordKind, List<Target>> e : byFamily.entrySet()) {
            steps.add(
                new Claim(
                    ns.name(),
                    RecordSet.plain(e.getKey(), zone.nsTtlSeconds(), e.getValue(), CONFIG_SOURCE),
                    "responder.zones[" + zone.name() + "].ns[" + i + "]"));
          }
        }
      }
    }

    /** What {@code input} contributes on its own, without claiming anything yet. */
    Derived derive(EndpointInput input) {
      steps = new ArrayList<>(2);
      try {
        add(input);
        return new Derived(List.copyOf(steps));
      } finally {
        steps = null;
      }
    }

    private void add(EndpointInput input) {
      String path = input.path();
      Optional<Problem> nameProblem = OwnerNames.check(path + ".dnsName", input.dnsName());
      if (nameProblem.isPresent()) {
        report(input, nameProblem.get());
        return;
      }
      String name = OwnerNames.normalise(input.dnsName());
      ZoneSpec zone = zones.zoneOf(name);
      if (zone == null) {
        report(input, new Problem(path + ".dnsName", input.dnsName(), "outside every zone served"));
        return;
      }
      long ttl = ttl(input);
      String type = input.recordType();
      if (type == null || type.isBlank()) {
        addUntyped(input, name, zone, ttl);
        return;
      }
      Optional<RecordKind> kind = RecordKind.parse(type);
      if (kind.isEmpty()) {
        report(
            input,
            new Problem(
                path + ".recordType",
                type,
                "unsupported record type; served: A, AAAA, CNAME, TXT"));
        return;
      }
      List<Target> targets = targets(input, kind.get());
      if (targets.isEmpty()) {
        report(input, new Problem(path + ".targets", null, "no valid target; nothing published"));
        return;
      }
      publish(input, name, zone, kind.get(), ttl, targets);
    }

    /** No recordType: address targets become A or AAAA by family; anything else is a problem. */
    private void addUntyped(EndpointInput input, String name, ZoneSpec zone, long ttl) {
      Map<RecordKind, List<Target>> byFamily = new EnumMap<>(RecordKind.class);
      for (int i = 0; i < input.targets().size(); i++) {
        String text = input.targets().get(i);
        Optional<IpLiteral> ip = IpLiteral.parse(text == null ? null : text.strip());
        if (ip.isEmpty()) {
          report(
              input,
              new Problem(
                  input.path() + ".targets[" + i + "]",
                  text,
                  "without recordType only IP address targets are accepted"));
          continue;
        }
        RecordKind kind =
            ip.get().family() == IpLiteral.Family.IPV4 ? RecordKind.A : RecordKind.AAAA;
        addUnique(byFamily.computeIfAbsent(kind, k -> new ArrayList<>()), target(ip.get()));
      }
      if (byFamily.isEmpty()) {
        report(
            input,
            new Problem(input.path() + ".targets", null, "no valid target; nothing published"));
      }
      for (Map.Entry<RecordKind, List<Target>> e : byFamily.entrySet()) {
        publish(input, name, zone, e.getKey(), ttl, e.getValue());
      }
    }

    private void publish(
        EndpointInput input,
        String name,
        ZoneSpec zone,
        RecordKind kind,
        long ttl,
        List<Target> targets) {
      if (kind == RecordKind.CNAME && name.equals(zone.name())) {
        report(
            input,
            new Problem(
                input.path() + ".dnsName",
                input.dnsName(),
                "a CNAME cannot be at the zone apex, beside its SOA and NS"));
        return;
      }
      RecordSet set;
      if (kind.isAddress()) {
        set = routed(input, kind, ttl, targets);
      } else {
        set = RecordSet.plain(kind, ttl, targets, input.source());
      }
      steps.add(new Claim(name, set, input.path()));
    }

    /** Applies the endpoint labels (geo strategy, weights, tags) to an address set. */
    private RecordSet routed(EndpointInput input, RecordKind kind, long ttl, List<Target> targets) {
      EndpointLabels labels = EndpointLabels.parse(input.path(), input.labels());
      labels.problems().forEach(p -> report(input, p));
      List<Target> tagged = new ArrayList<>(targets.size());
      int weightedCount = 0;
      for (Target t : targets) {
        Integer weight = labels.weights().get(t.value());
        if (weight != null) {
          weightedCount++;
        }
        tagged.add(
            new Target(
                t.value(),
                t.address(),
                labels.tags().get(t.value()),
                weight == null ? Target.NO_WEIGHT : weight));
      }
      for (String labelled : labels.weights().keySet()) {
        if (tagged.stream().noneMatch(t -> t.value().equals(labelled))
            && familyOf(labelled) == kind) {
          report(
              input,
              new Problem(
                  input.path() + ".labels",
                  labelled,
                  "a weight label names an address that is not a target"));
        }
      }
      boolean weighted = weightedCount == tagged.size();
      if (weightedCount > 0 && !weighted) {
        report(
            input,
            new Problem(
                input.path() + ".labels",
                null,
                "weight labels cover "
                    + weightedCount
                    + " of "
                    + tagged.size()
                    + " targets; answers are not weighted"));
        List<Target> plain = new ArrayList<>(tagged.size());
        for (Target t : tagged) {
          plain.add(new Target(t.value(), t.address(), t.tag(), Target.NO_WEIGHT));
        }
        tagged = plain;
      }
      return new RecordSet(kind, ttl, tagged, labels.geoip(), weighted, input.source());
    }

    private static RecordKind familyOf(String address) {
      return IpLiteral.isIpv4(address) ? RecordKind.A : RecordKind.AAAA;
    }

    private List<Target> targets(EndpointInput input, RecordKind kind) {
      List<Target> targets = new ArrayList<>();
      List<String> raw = input.targets();
      if (kind == RecordKind.CNAME && raw.size() != 1) {
        report(
            input,
            new Problem(
                input.path() + ".targets",
                String.valueOf(raw),
                "a CNAME has exactly one target, not " + raw.size()));
        return targets;
      }
      for (int i = 0; i < raw.size(); i++) {
        String text = raw.get(i);
        String field = input.path() + ".targets[" + i + "]";
        switch (kind) {
          case A, AAAA -> {
            Optional<IpLiteral> ip = IpLiteral.parse(text == null ? null : text.strip());
            IpLiteral.Family want =
                kind == RecordKind.A ? IpLiteral.Family.IPV4 : IpLiteral.Family.IPV6;
            if (ip.isEmpty() || ip.get().family() != want) {
              report(
                  input,
                  new Problem(
                      field,
                      text,
                      kind == RecordKind.A
                          ? "not an IPv4 address; publish IPv6 with recordType AAAA"
                          : "not an IPv6 address; publish IPv4 with recordType A"));
              continue;
            }
            addUnique(targets, target(ip.get()));
          }
          case CNAME -> {
            Optional<Problem> problem = OwnerNames.check(field, text);
            if (problem.isPresent()) {
              report(input, problem.get());
              continue;
            }
            addUnique(targets, Target.of(OwnerNames.normalise(text), null));
          }
          case TXT -> {
            if (text == null) {
              report(input, new Problem(field, null, "a TXT target is missing"));
              continue;
            }
            Optional<Problem> tooLong = TxtText.check(field, text);
            if (tooLong.isPresent()) {
              report(input, tooLong.get());
              continue;
            }
            addUnique(targets, Target.of(text, null));
          }
        }
      }
      return targets;
    }

    private long ttl(EndpointInput input) {
      long ttl = input.ttlSeconds();
      if (ttl <= 0) {
        return limits.defaultTtlSeconds();
      }
      Optional<Problem> problem = Ttl.check(input.path() + ".recordTTL", ttl);
      if (problem.isPresent()) {
        report(input, problem.get());
        return limits.defaultTtlSeconds();
      }
      return ttl;
    }

    private void report(EndpointInput input, Problem problem) {
      steps.add(new Reported(new SourcedProblem(input.source(), problem)));
    }

    private static void addUnique(List<Target> targets, Target target) {
      for (Target t : targets) {
        if (t.value().equals(target.value())) {
          return;
        }
      }
      targets.add(target);
    }

    private static Target target(IpLiteral ip) {
      try {
        // A strict literal: getByName parses it without any lookup.
        return Target.of(ip.text(), InetAddress.getByName(ip.text()));
      } catch (UnknownHostException e) {
        throw new IllegalStateException("validated literal " + ip.text() + " did not parse", e);
      }
    }
  }
}
