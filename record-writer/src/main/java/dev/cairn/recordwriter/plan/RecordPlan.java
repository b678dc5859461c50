package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.LocalTargetsName;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.plan.Changes.Create;
import dev.cairn.recordwriter.plan.Changes.Delete;
import dev.cairn.recordwriter.plan.Changes.Update;
import dev.cairn.recordwriter.plan.Conflict.Kind;
import dev.cairn.recordwriter.plan.Outcome.Grace;
import dev.cairn.recordwriter.plan.Outcome.StaleSinceReset;
import dev.cairn.recordwriter.plan.Outcome.State;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Computes the writes that bring the DNSEndpoints Cairn owns to the decisions, like external-dns's
 * {@code plan.Calculate}: from the full current and desired state, never from the last event, so
 * running it twice on the same input gives the same answer and running it on converged state gives
 * no changes.
 *
 * <p>Per object name:
 *
 * <ul>
 *   <li>An object that is not Cairn's ({@link Ownership#isOwned}) is never written; every decision
 *       that wants its name gets a {@link Kind#FOREIGN_OBJECT} conflict.
 *   <li>One source per object: the source named by the object's {@link Ownership#SOURCE_ANNOTATION}
 *       keeps it while it claims it; otherwise the claimant whose key sorts first gets it, and the
 *       others get a conflict.
 *   <li>One DNSEndpoint per DNS name: a name another DNSEndpoint keeps ({@link
 *       DesiredState#heldElsewhere()}, chosen by {@link NameHolders}) is left out with a {@link
 *       Kind#NAME_HELD_ELSEWHERE} conflict; an object whose every name is kept elsewhere is not
 *       created, or is deleted.
 *   <li>{@code PUBLISH} writes the valid records ({@link EndpointRules}); rejected records are
 *       reported and the valid rest is written. If none is valid the object is left as it is, so
 *       bad input never removes a good record.
 *   <li>{@code NO_TARGETS} keeps the last published endpoints for the grace period (the decision's
 *       {@code gracePeriodSeconds}, else, or when it is over 10 years, the default), recording its
 *       start in {@link Ownership#STALE_SINCE_ANNOTATION}; then deletes (k8s-direct-dns semantics).
 *       A start in the future or that cannot be read is reset to now and reported.
 *   <li>{@code WITHDRAW}, and an owned object that no decision claims, are deleted at once.
 *   <li>Deletes happen only from a {@linkplain DesiredState#complete() complete} desired state.
 * </ul>
 */
public final class RecordPlan {

  private final Duration defaultGrace;

  /**
   * A planner.
   *
   * @param defaultGrace the grace period of decisions that set none
   */
  public RecordPlan(Duration defaultGrace) {
    this.defaultGrace = Objects.requireNonNull(defaultGrace, "defaultGrace");
  }

  /**
   * Plans the writes for every object in {@code current} and every object a decision names.
   *
   * @param current the objects that exist, owned or not, at the names concerned
   * @param desired the decisions and whether they are complete
   * @param now the plan time, for grace periods
   */
  public Plan plan(Collection<CurrentRecord> current, DesiredState desired, Instant now) {
    Objects.requireNonNull(now, "now");
    Map<ObjectKey, CurrentRecord> byKey = new HashMap<>();
    for (CurrentRecord c : current) {
      byKey.put(c.key(), c);
    }
    Map<String, Problem> invalid = new TreeMap<>();
    Map<ObjectKey, List<Claim>> claims = new HashMap<>();
    Set<String> invalidSources = new HashSet<>();
    for (Map.Entry<String, TargetDecision> e : new TreeMap<>(desired.decisions()).entrySet()) {
      Optional<Problem> problem = problemOf(e.getKey(), e.getValue());
      if (problem.isPresent()) {
        invalid.put(e.getKey(), problem.get());
        invalidSources.add(e.getKey());
        continue;
      }
      TargetDecision d = e.getValue();
      claims
          .computeIfAbsent(ObjectKey.of(d.namespace(), d.name()), k -> new ArrayList<>())
          .add(new Claim(e.getKey(), d));
    }
    Run run = new Run(desired.complete(), invalidSources, desired.heldElsewhere(), now);
    Set<ObjectKey> keys = new TreeSet<>(byKey.keySet());
    keys.addAll(claims.keySet());
    for (ObjectKey key : keys) {
      run.decide(key, byKey.get(key), claims.getOrDefault(key, List.of()));
    }
    return new Plan(new Changes(run.creates, run.updates, run.deletes), run.outcomes, invalid);
  }

  /**
   * Why a decision cannot be used at all (its key does not match its source, or it names no valid
   * object), or empty when it can.
   */
  public static Optional<Problem> problemOf(String key, TargetDecision d) {
    if (!key.equals(d.source().key())) {
      return Optional.of(
          new Problem(
              "source",
              d.source().key(),
              "the decision is keyed '" + key + "' but names another source"));
    }
    if (!ObjectNames.isLabel(d.namespace())) {
      return Optional.of(
          new Problem("namespace", d.namespace(), "not a valid namespace name (DNS-1123 label)"));
    }
    if (!ObjectNames.isSubdomain(d.name())) {
      return Optional.of(
          new Problem("name", d.name(), "not a valid object name (DNS-1123 subdomain)"));
    }
    return Optional.empty();
  }

  /**
   * The longest grace period a decision may ask for: 10 years, the most the strategy-engine reads
   * from a route's annotation. A longer one (a decision written by hand) would overflow the expiry
   * instant; it is reported and the default is used.
   */
  static final long MAX_GRACE_SECONDS = 10L * 365 * 24 * 3600;

  /** The source key prefix of a Gslb's decisions. */
  static final String GSLB_SOURCE_PREFIX = "Gslb/";

  private record Claim(String source, TargetDecision decision) {}

  /** The mutable state of one plan computation. */
  private final class Run {
    final boolean complete;
    final Set<String> invalidSources;
    final Map<ObjectKey, Map<DnsName, ObjectKey>> heldElsewhere;
    final Instant now;
    final List<Create> creates = new ArrayList<>();
    final List<Update> updates = new ArrayList<>();
    final List<Delete> deletes = new ArrayList<>();
    final Map<ObjectKey, Outcome> outcomes = new HashMap<>();

    Run(
        boolean complete,
        Set<String> invalidSources,
        Map<ObjectKey, Map<DnsName, ObjectKey>> heldElsewhere,
        Instant now) {
      this.complete = complete;
      this.invalidSources = invalidSources;
      this.heldElsewhere = heldElsewhere;
      this.now = now;
    }

    void decide(ObjectKey key, CurrentRecord c, List<Claim> claims) {
      if (c != null && !c.owned()) {
        if (!claims.isEmpty()) {
          List<Conflict> conflicts =
              claims.stream()
                  .map(cl -> new Conflict(key, cl.source(), c.holder(), Kind.FOREIGN_OBJECT))
                  .toList();
          outcome(
              key,
              claims.get(0).source(),
              State.CONFLICT,
              null,
              conflicts.get(0).describe(),
              List.of(),
              List.of(),
              conflicts,
              null,
              null);
        }
        return;
      }
      String holderSource = c == null ? null : c.source();
      Claim winner = null;
      for (Claim cl : claims) {
        if (cl.source().equals(holderSource)) {
          winner = cl;
        }
      }
      if (winner == null && !claims.isEmpty()) {
        boolean holderMayStillClaim =
            holderSource != null && !complete && !invalidSources.contains(holderSource);
        if (holderMayStillClaim || invalidSources.contains(holderSource)) {
          List<Conflict> pending =
              claims.stream()
                  .map(
                      cl ->
                          new Conflict(
                              key,
                              cl.source(),
                              c.holder(),
                              holderMayStillClaim
                                  ? Kind.PENDING_SYNC
                                  : Kind.CLAIMED_BY_OTHER_SOURCE))
                  .toList();
          outcome(
              key,
              holderSource,
              State.CONFLICT,
              null,
              pending.get(0).describe(),
              List.of(),
              List.of(),
              pending,
              null,
              null);
          return;
        }
        winner = claims.get(0);
      }
      List<Conflict> conflicts = new ArrayList<>();
      for (Claim cl : claims) {
        if (cl != winner) {
          String holder =
              c == null ? "cairn source " + winner.source() + " (sorts first)" : c.holder();
          conflicts.add(new Conflict(key, cl.source(), holder, Kind.CLAIMED_BY_OTHER_SOURCE));
        }
      }
      if (winner == null) {
        if (invalidSources.contains(holderSource)) {
          outcome(
              key,
              holderSource,
              State.INVALID,
              null,
              "the source's decision is invalid; the record is left as it is",
              List.of(),
              List.of(),
              conflicts,
              null,
              null);
        } else {
          delete(
              key,
              c,
              holderSource,
              ChangeReason.SOURCE_GONE,
              "no decision claims this record (source "
                  + (holderSource == null ? "unknown" : holderSource)
                  + ")",
              conflicts,
              null);
        }
        return;
      }
      TargetDecision d = winner.decision();
      switch (d.disposition()) {
        case WITHDRAW -> {
          if (c == null) {
            outcome(
                key,
                winner.source(),
                State.ABSENT,
                null,
                "withdrawn; nothing is published",
                List.of(),
                List.of(),
                conflicts,
                null,
                null);
          } else {
            delete(
                key,
                c,
                winner.source(),
                ChangeReason.WITHDRAWN,
                "the decision withdraws the record",
                conflicts,
                null);
          }
        }
        case PUBLISH -> publish(key, c, winner, conflicts);
        case NO_TARGETS -> keepForGrace(key, c, winner, conflicts);
      }
    }

    void publish(ObjectKey key, CurrentRecord c, Claim winner, List<Conflict> conflicts) {
      TargetDecision d = winner.decision();
      EndpointRules.Checked checked = EndpointRules.check(d.records());
      if (checked.endpoints().isEmpty()) {
        outcome(
            key,
            winner.source(),
            State.INVALID,
            null,
            c == null
                ? "every record of the decision was rejected; nothing is published"
                : "every record of the decision was rejected; the published record is left as it is",
            checked.problems(),
            List.of(),
            conflicts,
            null,
            null);
        return;
      }
      List<Endpoint> endpoints =
          withoutNamesHeldElsewhere(key, winner, checked.endpoints(), conflicts);
      if (endpoints.isEmpty()) {
        String why = "every name of the decision is kept by another DNSEndpoint";
        if (c == null) {
          outcome(
              key,
              winner.source(),
              State.CONFLICT,
              null,
              why + "; nothing is published",
              checked.problems(),
              List.of(),
              conflicts,
              null,
              null);
        } else {
          delete(key, c, winner.source(), ChangeReason.NAMES_HELD_ELSEWHERE, why, conflicts, null);
        }
        return;
      }
      List<Problem> notes = new ArrayList<>();
      Map<String, String> labels = objectLabels(d, notes);
      ControllerRef controller = controllerRef(winner, c, notes);
      DesiredRecord want =
          new DesiredRecord(key, winner.source(), labels, controller, null, endpoints);
      if (c == null) {
        creates.add(new Create(want, ChangeReason.PUBLISH));
        outcome(
            key,
            winner.source(),
            State.PUBLISHED,
            ChangeReason.PUBLISH,
            "created from the decision",
            checked.problems(),
            notes,
            conflicts,
            null,
            null);
      } else if (want.matches(c)) {
        outcome(
            key,
            winner.source(),
            State.PUBLISHED,
            null,
            "published and in sync",
            checked.problems(),
            notes,
            conflicts,
            null,
            null);
      } else {
        ChangeReason reason =
            c.staleSince() != null
                ? ChangeReason.RESTORE
                : winner.source().equals(c.source()) ? ChangeReason.PUBLISH : ChangeReason.ADOPT;
        updates.add(new Update(c, want, reason));
        outcome(
            key,
            winner.source(),
            State.PUBLISHED,
            reason,
            switch (reason) {
              case RESTORE -> "targets are back: records restored and the grace timer removed";
              case ADOPT -> "taken over from " + c.holder();
              default -> "updated to the decision";
            },
            checked.problems(),
            notes,
            conflicts,
            null,
            null);
      }
    }

    void keepForGrace(ObjectKey key, CurrentRecord c, Claim winner, List<Conflict> conflicts) {
      TargetDecision d = winner.decision();
      if (c == null) {
        outcome(
            key,
            winner.source(),
            State.ABSENT,
            null,
            "no targets and nothing published, so nothing is kept",
            List.of(),
            List.of(),
            conflicts,
            null,
            null);
        return;
      }
      List<Problem> notes = new ArrayList<>();
      Duration grace = defaultGrace;
      if (d.gracePeriodSeconds() != null && d.gracePeriodSeconds() > MAX_GRACE_SECONDS) {
        notes.add(
            new Problem(
                "gracePeriodSeconds",
                Long.toString(d.gracePeriodSeconds()),
                "more than "
                    + MAX_GRACE_SECONDS
                    + " seconds (10 years); the writer's default grace period "
                    + defaultGrace
                    + " is used"));
      } else if (d.gracePeriodSeconds() != null) {
        grace = Duration.ofSeconds(d.gracePeriodSeconds());
      }
      if (grace.isZero() || grace.isNegative()) {
        delete(
            key,
            c,
            winner.source(),
            ChangeReason.GRACE_DISABLED,
            "no targets and the grace period is " + grace,
            conflicts,
            null);
        return;
      }
      if (c.endpoints().isEmpty()) {
        delete(
            key,
            c,
            winner.source(),
            ChangeReason.NOTHING_TO_KEEP,
            "no targets and the object publishes no endpoints",
            conflicts,
            null);
        return;
      }
      String raw = c.staleSince();
      Instant since = now;
      boolean persist = true;
      StaleSinceReset reset = null;
      if (raw != null && !raw.isBlank()) {
        Optional<Instant> parsed = StaleSince.parse(raw);
        if (parsed.isEmpty()) {
          reset = new StaleSinceReset(raw, StaleSinceReset.Cause.UNPARSEABLE);
        } else if (parsed.get().isAfter(now)) {
          reset = new StaleSinceReset(raw, StaleSinceReset.Cause.FUTURE);
        } else {
          since = parsed.get();
          persist = false;
        }
      }
      Instant expires = since.plus(grace);
      Grace window = new Grace(since, expires);
      if (!now.isBefore(expires)) {
        delete(
            key,
            c,
            winner.source(),
            ChangeReason.GRACE_EXPIRED,
            "no targets since "
                + StaleSince.format(since)
                + " and the grace period "
                + grace
                + " is over",
            conflicts,
            window);
        return;
      }
      List<Endpoint> named = withoutNamesHeldElsewhere(key, winner, c.endpoints(), conflicts);
      List<Endpoint> kept = withoutLocalTargets(winner, named);
      if (kept.isEmpty() && !named.isEmpty()) {
        delete(
            key,
            c,
            winner.source(),
            ChangeReason.LOCAL_TARGETS_WITHDRAWN,
            "no targets, and a Gslb's localtargets records are never kept: they tell peers"
                + " whether this cluster serves",
            conflicts,
            window);
        return;
      }
      if (kept.isEmpty()) {
        delete(
            key,
            c,
            winner.source(),
            ChangeReason.NAMES_HELD_ELSEWHERE,
            "no targets, and every name of the kept records is kept by another DNSEndpoint",
            conflicts,
            window);
        return;
      }
      DesiredRecord keep =
          new DesiredRecord(
              key,
              winner.source(),
              c.labels(),
              c.controller(),
              persist ? StaleSince.format(since) : raw,
              kept);
      ChangeReason reason = null;
      if (!keep.matches(c)) {
        reason =
            reset != null
                ? ChangeReason.GRACE_RESET
                : persist
                    ? ChangeReason.GRACE_START
                    : kept.size() != named.size()
                        ? ChangeReason.LOCAL_TARGETS_WITHDRAWN
                        : kept.size() != c.endpoints().size()
                            ? ChangeReason.NAMES_HELD_ELSEWHERE
                            : ChangeReason.ADOPT;
        updates.add(new Update(c, keep, reason));
      }
      outcome(
          key,
          winner.source(),
          State.IN_GRACE,
          reason,
          "no targets: the last records are kept until " + StaleSince.format(expires),
          List.of(),
          notes,
          conflicts,
          window,
          reset);
    }

    /**
     * The endpoints a Gslb keeps through its grace period: all but its {@code localtargets-<host>}
     * records. Those say that this cluster serves the host now (k8gb.md §3); a peer that still
     * found them would count this cluster as serving for as long as the grace period lasts. Other
     * sources keep everything.
     */
    List<Endpoint> withoutLocalTargets(Claim winner, List<Endpoint> endpoints) {
      if (!winner.source().startsWith(GSLB_SOURCE_PREFIX)) {
        return endpoints;
      }
      List<Endpoint> kept = new ArrayList<>(endpoints.size());
      for (Endpoint e : endpoints) {
        if (!LocalTargetsName.is(e.dnsName())) {
          kept.add(e);
        }
      }
      return kept.size() == endpoints.size() ? endpoints : kept;
    }

    /**
     * The endpoints without those whose name another DNSEndpoint keeps; each left out adds a {@link
     * Kind#NAME_HELD_ELSEWHERE} conflict.
     */
    List<Endpoint> withoutNamesHeldElsewhere(
        ObjectKey key, Claim winner, List<Endpoint> endpoints, List<Conflict> conflicts) {
      Map<DnsName, ObjectKey> held = heldElsewhere.getOrDefault(key, Map.of());
      if (held.isEmpty()) {
        return endpoints;
      }
      List<Endpoint> kept = new ArrayList<>();
      for (Endpoint e : endpoints) {
        DnsName name = DnsName.of(e);
        ObjectKey holder = held.get(name);
        if (holder == null) {
          kept.add(e);
        } else {
          conflicts.add(
              new Conflict(
                  key, winner.source(), "DNSEndpoint " + holder, Kind.NAME_HELD_ELSEWHERE, name));
        }
      }
      return kept;
    }

    void delete(
        ObjectKey key,
        CurrentRecord c,
        String source,
        ChangeReason reason,
        String why,
        List<Conflict> conflicts,
        Grace grace) {
      if (complete) {
        deletes.add(new Delete(c, reason));
        outcome(
            key, source, State.REMOVED, reason, why, List.of(), List.of(), conflicts, grace, null);
      } else {
        outcome(
            key,
            source,
            State.DEFERRED,
            null,
            why + "; not deleted before all decisions are read",
            List.of(),
            List.of(),
            conflicts,
            grace,
            null);
      }
    }

    void outcome(
        ObjectKey key,
        String source,
        State state,
        ChangeReason change,
        String detail,
        List<Problem> rejected,
        List<Problem> notes,
        List<Conflict> conflicts,
        Grace grace,
        StaleSinceReset reset) {
      outcomes.put(
          key,
          new Outcome(
              key, source, state, change, detail, rejected, notes, conflicts, grace, reset));
    }
  }

  private static Map<String, String> objectLabels(TargetDecision d, List<Problem> notes) {
    Map<String, String> labels = new TreeMap<>();
    for (Map.Entry<String, String> e : d.labels().entrySet()) {
      String field = "labels[" + e.getKey() + "]";
      if (e.getKey().equals(Ownership.MANAGED_BY_LABEL)) {
        notes.add(new Problem(field, e.getValue(), "reserved for Cairn's ownership; ignored"));
        continue;
      }
      if (!LabelValues.isValidKey(e.getKey())) {
        notes.add(new Problem(field, e.getKey(), "not a valid label key; ignored"));
        continue;
      }
      String value = LabelValues.sanitise(e.getValue());
      if (!value.equals(e.getValue())) {
        notes.add(
            new Problem(
                field, e.getValue(), "not a valid label value; written as '" + value + "'"));
      }
      labels.put(e.getKey(), value);
    }
    labels.put(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE);
    return labels;
  }

  private static ControllerRef controllerRef(Claim winner, CurrentRecord c, List<Problem> notes) {
    TargetDecision d = winner.decision();
    ObjectRef source = d.source();
    boolean sameScope = source.namespace() == null || source.namespace().equals(d.namespace());
    if (!sameScope) {
      notes.add(
          new Problem(
              "namespace",
              d.namespace(),
              "the source is in namespace "
                  + source.namespace()
                  + "; owner references cannot cross namespaces, so none is set"));
      return null;
    }
    if (d.sourceUid() != null
        && !d.sourceUid().isBlank()
        && d.sourceApiVersion() != null
        && !d.sourceApiVersion().isBlank()) {
      return new ControllerRef(d.sourceApiVersion(), source.kind(), source.name(), d.sourceUid());
    }
    if (c != null
        && c.controller() != null
        && c.controller().kind().equals(source.kind())
        && c.controller().name().equals(source.name())) {
      return c.controller();
    }
    return null;
  }
}
