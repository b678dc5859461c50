package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.LocalTargetsName;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.strategyengine.gslb.GslbReport.HostReport;
import dev.cairn.strategyengine.gslb.GslbReport.PeerReport;
import dev.cairn.strategyengine.gslb.GslbReport.ServiceReport;
import dev.cairn.strategyengine.placement.PlacementDependencies;
import dev.cairn.strategyengine.placement.PlacementSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Decides the DNSEndpoint and the status of a {@code k8gb.io/v1beta1} Gslb: k8gb's reconcile
 * (k8gb.md §2–§7) as a pure function, with the split-brain threshold honoured and k8gb's weaknesses
 * fixed (see {@code docs/compatibility.md} and {@code docs/strategies.md}).
 *
 * <ol>
 *   <li><b>Spec</b>: validated with defaults applied ({@code GslbSpec}); a blocking problem there,
 *       in the resourceRef or in the local-target annotations leaves the Gslb undecided: no new
 *       records (the previous decision stays) and the status carries the problems.
 *   <li><b>Servers</b>: the hosts and their Services from the resourceRef (Ingress, HTTPRoute,
 *       Service) or the embedded ingress; hosts outside {@code engine.gslb.zones} (a suffix match)
 *       are left out.
 *   <li><b>Local targets</b> ({@code LocalTargets}): annotation, cluster override, then discovery
 *       (a Service's load-balancer IPs, or an HTTPRoute's node-aware placement); IPv4 and IPv6.
 *   <li><b>Health</b> per host: Any/All over its Services (a Service is healthy when an endpoint
 *       with an address is ready; a Service that is not published counts as NotFound). This cluster
 *       <em>serves</em> a host when it is Healthy and has at least one local target.
 *   <li><b>Peers</b>: each peer's {@code localtargets-<host>} answer is judged ({@link
 *       PeerJudgement}): a reachable answer counts at once; an unreachable peer's last answer is
 *       trusted until {@code lastSuccess + splitBrainThreshold}.
 *   <li><b>Strategy</b> ({@link Strategy}): k8gb's decision table, one class per strategy.
 *   <li><b>Records</b>, per host: {@code localtargets-<host>} (A, AAAA) when this cluster serves
 *       it, and {@code <host>} (A, AAAA) with the chosen targets and the strategy's labels. A host
 *       whose {@code localtargets-} name would be invalid (a label over 63 or a name over 253
 *       octets) gets no record and a problem; the other hosts are unaffected.
 * </ol>
 */
public final class GslbDecider {

  /** The kind of the source object. */
  public static final String KIND = "Gslb";

  /** The apiVersion of the Gslbs Cairn decides. */
  public static final String API_VERSION = "k8gb.io/v1beta1";

  /**
   * The DNSEndpoint labels: the selector of the DNS responder (k8gb's CoreDNS filter), in both of
   * k8gb's spellings (k8gb issue #2024).
   */
  public static final Map<String, String> DNS_ENDPOINT_LABELS =
      Collections.unmodifiableSortedMap(
          new TreeMap<>(Map.of("k8gb.io/dnstype", "local", "k8gb.absa.oss/dnstype", "local")));

  private static final Comparator<DnsRecord> RECORD_ORDER =
      (a, b) -> {
        int byName = a.dnsName().compareTo(b.dnsName());
        return byName != 0 ? byName : a.recordType().compareTo(b.recordType());
      };

  private static final Comparator<PeerAnswer> BY_GEO_TAG =
      (a, b) -> a.geoTag().compareTo(b.geoTag());

  private static final Family[] FAMILIES = Family.values();

  private GslbDecider() {}

  /**
   * Decides a Gslb.
   *
   * @param gslb the Gslb
   * @param view the other inputs
   * @param settings the engine's Gslb settings
   * @param placement the engine's placement settings (for node-aware local targets)
   * @param now the evaluation time (compared with peers' last answers and resolution expiry)
   */
  public static GslbOutcome decide(
      GslbState gslb,
      GslbView view,
      GslbSettings settings,
      PlacementSettings placement,
      Instant now) {
    return new Run(
            Objects.requireNonNull(gslb, "gslb"),
            Objects.requireNonNull(view, "view"),
            Objects.requireNonNull(settings, "settings"),
            Objects.requireNonNull(placement, "placement"),
            Objects.requireNonNull(now, "now"))
        .decide();
  }

  /**
   * True when a problem reported by the topology-watcher stops the Gslb from being decided: the
   * watcher drops what it cannot read in {@code spec.strategy} and {@code spec.resourceRef} (a
   * weight of 1200 is reported and left out), so deciding without it would not be what the user
   * wrote.
   */
  static boolean blocksDecision(Problem problem) {
    String field = problem.field();
    return field.equals("spec")
        || field.startsWith("spec.strategy")
        || field.startsWith("spec.resourceRef");
  }

  /** One evaluation. */
  private static final class Run {

    private final GslbState gslb;
    private final GslbView view;
    private final GslbSettings settings;
    private final PlacementSettings placementSettings;
    private final Instant now;
    private final Findings findings = new Findings();
    private Map<String, ServiceReport> serviceHealth;

    private final List<DnsRecord> records = new ArrayList<>(4);
    private final List<HostReport> hostReports = new ArrayList<>(1);
    private final List<String> hostLines = new ArrayList<>(1);
    private final List<String> trustLines = new ArrayList<>();
    private final List<String> strategyNotes = new ArrayList<>();
    private final List<Skipped> peerSkips = new ArrayList<>();
    private final SortedPairs<String> healthByHost = new SortedPairs<>();
    private final SortedPairs<List<String>> healthyRecords = new SortedPairs<>();
    private final List<String> chosenTargets = new ArrayList<>(4);
    private final List<String> peerHosts = new ArrayList<>(1);
    private Instant reevaluateAt;

    Run(
        GslbState gslb,
        GslbView view,
        GslbSettings settings,
        PlacementSettings placementSettings,
        Instant now) {
      this.gslb = gslb;
      this.view = view;
      this.settings = settings;
      this.placementSettings = placementSettings;
      this.now = now;
    }

    GslbOutcome decide() {
      String me = settings.geoTag();
      if (me == null) {
        findings.block(
            new Problem(
                "engine.gslb.geo-tag",
                null,
                "this cluster's geo tag is not set; no Gslb is decided until it is"));
        return undecided(null, null, null, null);
      }
      GslbSpec.Validated validated = GslbSpec.validate(gslb, settings);
      for (Problem problem : validated.blocking()) {
        findings.block(problem);
      }
      for (Problem problem : validated.notes()) {
        findings.note(problem);
      }
      for (Problem problem : gslb.problems()) {
        if (blocksDecision(problem)) {
          findings.block(problem);
        }
      }
      Servers servers = Servers.resolve(gslb, view, settings, findings);
      LocalTargets local =
          LocalTargets.resolve(gslb, servers, view, settings, placementSettings, now, findings);
      GslbSpec spec = validated.spec();
      if (findings.blocked() || spec == null || servers == null) {
        return undecided(me, spec, servers, local);
      }
      return decided(me, spec, servers, local);
    }

    // ---------------------------------------------------------------- the decision

    private GslbOutcome decided(String me, GslbSpec spec, Servers servers, LocalTargets local) {
      if (servers.hosts().size() > 1) {
        serviceHealth = new HashMap<>();
      }
      for (Servers.Server server : servers.hosts()) {
        decideHost(server.host(), server, me, spec, local.targets());
      }
      if (records.size() > 1) {
        records.sort(RECORD_ORDER);
      }
      List<String> localTargets = local.targets().all();
      List<String> services = findings.services();
      Explanation explanation =
          new Explanation(
              summary(me, spec, servers, local, localTargets),
              backends(services),
              TargetLists.sortedDistinct(findings.zones),
              distinct(findings.candidateNodes),
              sortedDistinct(chosenTargets),
              concat(findings.fallbacks(), trustLines, hostLines, strategyNotes),
              concat(findings.skipped(), peerSkips));
      List<Problem> problems = problems();
      ObjectRef ref = gslb.ref();
      TargetDecision decision =
          new TargetDecision(
              ref,
              API_VERSION,
              gslb.uid(),
              gslb.namespace(),
              gslb.name(),
              records.isEmpty() ? Disposition.NO_TARGETS : Disposition.PUBLISH,
              TargetLists.immutable(records),
              DNS_ENDPOINT_LABELS,
              null,
              explanation,
              problems);
      GslbStatus status =
          new GslbStatus(
              gslb.namespace(),
              gslb.name(),
              gslb.uid(),
              me,
              healthByHost.toMap(),
              healthyRecords.toMap(),
              servers.hostList(),
              localTargets,
              statusServers(servers),
              lines(problems));
      GslbReport report =
          new GslbReport(
              ref.key(),
              me,
              spec.strategy().type(),
              spec.ttlSeconds(),
              spec.splitBrainThreshold().toSeconds(),
              true,
              local.source(),
              localTargets,
              TargetLists.immutable(hostReports),
              status.problems());
      GslbDependencies dependencies =
          new GslbDependencies(
              findings.route,
              findings.selection,
              findings.gateway,
              services,
              TargetLists.immutable(peerHosts),
              local.placement(),
              reevaluateAt);
      return new GslbOutcome(decision, status, report, dependencies, problems);
    }

    /** Decides one host: its health, its peers, the strategy's choice and its records. */
    private void decideHost(
        String host, Servers.Server server, String me, GslbSpec spec, TagTargets local) {
      ServiceReport[] reports = new ServiceReport[server.services().size()];
      HostHealth health = health(server.services(), spec.policy(), reports);
      List<ServiceReport> services = List.of(reports);
      healthByHost.add(host, health.text());
      String localName = LocalTargetsName.of(host);
      Optional<Problem> nameProblem = localNameProblem(host, localName);
      if (nameProblem.isPresent()) {
        String reason =
            "the record name "
                + localName
                + " would be invalid ("
                + nameProblem.get().reason()
                + "), so peers could never read this cluster's targets; the host gets no"
                + " records, the other hosts are unaffected. Shorten its first label to at most "
                + (Hostnames.MAX_LABEL - LocalTargetsName.PREFIX.length())
                + " octets";
        findings.note(new Problem(server.field(), host, reason));
        hostReports.add(
            new HostReport(
                host,
                health.text(),
                services,
                false,
                List.of(),
                null,
                null,
                Map.of(),
                List.of(),
                reason));
        return;
      }
      peerHosts.add(host);
      boolean serving = health == HostHealth.HEALTHY && !local.isEmpty();
      if (health == HostHealth.HEALTHY && local.isEmpty()) {
        findings.skip(
            "local targets of " + host,
            "the host is Healthy but this cluster has no local target, so it does not serve it"
                + " (no localtargets record)");
      }
      PeerAnswer[] answers = view.peerAnswers(host).toArray(new PeerAnswer[0]);
      PeerReport[] peerReports = new PeerReport[answers.length];
      SortedMap<String, TagTargets> peers = judgePeers(host, me, spec, answers, peerReports);
      Selection selection = spec.strategy().select(me, serving, local, peers);
      if (serving) {
        for (Family family : FAMILIES) {
          List<String> targets = local.of(family);
          if (!targets.isEmpty()) {
            records.add(
                new DnsRecord(
                    localName,
                    family.recordType(),
                    spec.ttlSeconds(),
                    TargetLists.sortedDistinct(targets),
                    Map.of()));
          }
        }
      }
      List<String> hostTargets =
          hostRecords(records, host, spec.ttlSeconds(), spec.strategy(), selection, strategyNotes);
      if (!hostTargets.isEmpty()) {
        healthyRecords.add(host, hostTargets);
        chosenTargets.addAll(hostTargets);
      }
      hostLines.add(hostLine(host, selection, hostTargets));
      SortedPairs<List<String>> chosen = new SortedPairs<>();
      for (Map.Entry<String, TagTargets> entry : selection.chosen().entrySet()) {
        chosen.add(entry.getKey(), entry.getValue().all());
      }
      hostReports.add(
          new HostReport(
              host,
              health.text(),
              services,
              serving,
              List.of(peerReports),
              selection.branch().name(),
              selection.branch().description(),
              chosen.toMap(),
              hostTargets,
              null));
    }

    /**
     * The problem with a host's {@code localtargets-} name. The host passed {@link Hostnames#check}
     * when {@link Servers} took it, so the prefix (letters and a hyphen before its first label) can
     * only make the first label or the whole name too long; only then is the name checked in full,
     * for the exact problem.
     */
    private static Optional<Problem> localNameProblem(String host, String localName) {
      int firstLabel = host.indexOf('.');
      if (firstLabel < 0) {
        firstLabel = host.length();
      }
      if (firstLabel + LocalTargetsName.PREFIX.length() <= Hostnames.MAX_LABEL
          && localName.length() <= Hostnames.MAX_NAME) {
        return Optional.empty();
      }
      return Hostnames.check(localName, localName);
    }

    /**
     * Judges every peer's answer for a host, sorted by geo tag in place, each into its report;
     * returns the serving peers (k8gb's {@code E}) and notes the earliest instant a trusted answer
     * expires.
     */
    private SortedMap<String, TagTargets> judgePeers(
        String host, String me, GslbSpec spec, PeerAnswer[] answers, PeerReport[] reports) {
      SortedMap<String, TagTargets> peers = new TreeMap<>();
      if (answers.length > 1) {
        Arrays.sort(answers, BY_GEO_TAG);
      }
      for (int i = 0; i < answers.length; i++) {
        PeerJudgement judged = PeerJudgement.judge(answers[i], me, spec.splitBrainThreshold(), now);
        reports[i] = report(judged);
        peerSkips.addAll(judged.skipped());
        if (judged.verdict().serving()) {
          peers.put(judged.geoTag(), judged.targets());
        }
        if (judged.trustedUntil() != null) {
          trustLines.add(host + ": peer " + judged.geoTag() + " " + judged.reason() + ".");
          if (reevaluateAt == null || judged.trustedUntil().isBefore(reevaluateAt)) {
            reevaluateAt = judged.trustedUntil();
          }
        } else if (!judged.verdict().serving()) {
          peerSkips.add(
              new Skipped(
                  "peer " + judged.geoTag() + " for " + host,
                  judged.reason() + " [" + judged.verdict().name() + "]"));
        }
      }
      return peers;
    }

    /**
     * Adds the A and AAAA records of a host: the union of the chosen targets of each family,
     * labelled by the strategy.
     *
     * @return the targets of the records added, A first then AAAA, each sorted
     */
    private static List<String> hostRecords(
        List<DnsRecord> records,
        String host,
        long ttl,
        Strategy strategy,
        Selection selection,
        List<String> notes) {
      List<String> added = List.of();
      for (Family family : FAMILIES) {
        List<String> targets = union(selection.chosen().values(), family);
        if (targets.isEmpty()) {
          continue;
        }
        List<String> familyNotes = new ArrayList<>(0);
        Map<String, String> labels = strategy.labels(selection.chosen(), family, familyNotes);
        for (String note : familyNotes) {
          notes.add(host + ": " + note + ".");
        }
        records.add(new DnsRecord(host, family.recordType(), ttl, targets, labels));
        added = TargetLists.concat(added, targets);
      }
      return added;
    }

    /** The targets of one family of every chosen cluster, string-sorted, without duplicates. */
    private static List<String> union(Collection<TagTargets> chosen, Family family) {
      List<String> single = null;
      int total = 0;
      for (TagTargets targets : chosen) {
        List<String> some = targets.of(family);
        if (!some.isEmpty()) {
          single = total == 0 ? some : null;
          total += some.size();
        }
      }
      if (total == 0) {
        return List.of();
      }
      if (single != null) {
        return TargetLists.sortedDistinct(single);
      }
      String[] all = new String[total];
      int count = 0;
      for (TagTargets targets : chosen) {
        for (String target : targets.of(family)) {
          all[count++] = target;
        }
      }
      return TargetLists.sortedDistinct(all, count);
    }

    // The explanation's sentences are built with single concatenations, which size the result
    // once: "→" makes a line UTF-16, which a StringBuilder would widen and then copy again.

    private static String hostLine(String host, Selection selection, List<String> targets) {
      String rule = selection.branch().description();
      String branch = selection.branch().name();
      if (targets.isEmpty()) {
        return host + ": " + rule + " → no record. [" + branch + "]";
      }
      return host + ": " + rule + " → " + chosenText(selection.chosen()) + ". [" + branch + "]";
    }

    /** {@code tag target, target; tag target}, the chosen targets of a host in words. */
    private static String chosenText(SortedMap<String, TagTargets> chosen) {
      if (chosen.size() == 1) {
        Map.Entry<String, TagTargets> only = chosen.entrySet().iterator().next();
        return only.getKey() + " " + joined(only.getValue().all());
      }
      StringBuilder text = new StringBuilder(32 * chosen.size());
      for (Map.Entry<String, TagTargets> entry : chosen.entrySet()) {
        if (text.length() > 0) {
          text.append("; ");
        }
        text.append(entry.getKey()).append(' ');
        appendJoined(text, entry.getValue().all());
      }
      return text.toString();
    }

    private String summary(
        String me, GslbSpec spec, Servers servers, LocalTargets local, List<String> localTargets) {
      String context =
          "strategy "
              + spec.strategy().type()
              + " as geo tag "
              + me
              + ", local targets "
              + (localTargets.isEmpty() ? "none" : joined(localTargets))
              + " from "
              + local.source();
      if (records.isEmpty()) {
        String why =
            servers.hosts().isEmpty()
                ? "the Gslb has no host to balance"
                : "no host is served by this cluster or by a peer";
        return "No targets: " + why + " (" + context + ").";
      }
      return "Published "
          + records.size()
          + " record(s) for "
          + servers.hosts().size()
          + " host(s) ("
          + context
          + ").";
    }

    // ---------------------------------------------------------------- health

    private HostHealth health(
        List<String> serviceKeys, HealthPolicy policy, ServiceReport[] reports) {
      int healthy = 0;
      int unhealthy = 0;
      int notFound = 0;
      for (int i = 0; i < reports.length; i++) {
        ServiceReport report = serviceHealthOf(serviceKeys.get(i));
        reports[i] = report;
        if (report.health().equals(HostHealth.HEALTHY.text())) {
          healthy++;
        } else if (report.health().equals(HostHealth.UNHEALTHY.text())) {
          unhealthy++;
        } else {
          notFound++;
        }
      }
      return policy.combine(healthy, unhealthy, notFound);
    }

    /**
     * A Service's health, read once per evaluation however many hosts share the Service (with a
     * single host, whose Services are distinct, there is nothing to share).
     */
    private ServiceReport serviceHealthOf(String key) {
      if (serviceHealth == null) {
        return serviceHealth(key);
      }
      ServiceReport report = serviceHealth.get(key);
      if (report == null) {
        report = serviceHealth(key);
        serviceHealth.put(key, report);
      }
      return report;
    }

    private ServiceReport serviceHealth(String key) {
      String name = key.substring("Service/".length());
      if (view.service(key).isEmpty()) {
        return new ServiceReport(name, HostHealth.NOT_FOUND.text(), "the Service is not published");
      }
      Optional<ServiceEndpoints> endpoints = view.endpoints(key);
      if (endpoints.isEmpty() || endpoints.get().endpoints().isEmpty()) {
        return new ServiceReport(name, HostHealth.UNHEALTHY.text(), "no endpoints");
      }
      int ready = 0;
      for (EndpointState endpoint : endpoints.get().endpoints()) {
        if (!endpoint.addresses().isEmpty() && endpoint.isReady()) {
          ready++;
        }
      }
      if (ready == 0) {
        return new ServiceReport(
            name,
            HostHealth.UNHEALTHY.text(),
            "none of its " + endpoints.get().endpoints().size() + " endpoint(s) is ready");
      }
      return new ServiceReport(
          name,
          HostHealth.HEALTHY.text(),
          ready + " of " + endpoints.get().endpoints().size() + " endpoint(s) ready");
    }

    // ---------------------------------------------------------------- undecided

    private GslbOutcome undecided(String me, GslbSpec spec, Servers servers, LocalTargets local) {
      List<Problem> problems = problems();
      List<String> lines = lines(problems);
      GslbStatus status =
          new GslbStatus(
              gslb.namespace(),
              gslb.name(),
              gslb.uid(),
              me,
              Map.of(),
              Map.of(),
              servers == null ? null : servers.hostList(),
              local == null ? List.of() : local.targets().all(),
              servers == null ? List.of() : statusServers(servers),
              lines);
      GslbReport report =
          new GslbReport(
              gslb.ref().key(),
              me,
              gslb.strategy() == null ? null : gslb.strategy().type(),
              spec == null ? null : spec.ttlSeconds(),
              spec == null ? null : spec.splitBrainThreshold().toSeconds(),
              false,
              local == null ? null : local.source(),
              local == null ? List.of() : local.targets().all(),
              List.of(),
              lines);
      GslbDependencies dependencies =
          new GslbDependencies(
              findings.route,
              findings.selection,
              findings.gateway,
              findings.services(),
              List.of(),
              local == null ? PlacementDependencies.NONE : local.placement(),
              null);
      return new GslbOutcome(null, status, report, dependencies, problems);
    }

    // ---------------------------------------------------------------- shared

    /**
     * The watcher's problems, then the engine's blocking problems and notes. A field and value that
     * both reported is listed once, in the watcher's place with the engine's reason: the engine
     * knows its settings (the default TTL, the bounds), the watcher does not.
     */
    private List<Problem> problems() {
      List<Problem> watcher = gslb.problems();
      if (findings.blocking().isEmpty() && findings.notes().isEmpty() && watcher.size() <= 1) {
        return watcher;
      }
      List<Problem> engine = new ArrayList<>(findings.blocking());
      engine.addAll(findings.notes());
      Set<Problem> all = new LinkedHashSet<>();
      for (Problem problem : watcher) {
        all.add(sameFieldAndValue(engine, problem));
      }
      for (Problem problem : engine) {
        if (sameFieldAndValue(all, problem) == problem) {
          all.add(problem);
        }
      }
      return List.copyOf(all);
    }

    /** The first of {@code problems} on the field and value of {@code problem}, else itself. */
    private static Problem sameFieldAndValue(Collection<Problem> problems, Problem problem) {
      for (Problem p : problems) {
        if (p.sameFieldAndValue(problem)) {
          return p;
        }
      }
      return problem;
    }

    private static List<String> lines(List<Problem> problems) {
      if (problems.isEmpty()) {
        return List.of();
      }
      String[] lines = new String[problems.size()];
      for (int i = 0; i < lines.length; i++) {
        lines[i] = problems.get(i).toString();
      }
      return List.of(lines);
    }

    private static List<String> backends(List<String> services) {
      if (services.isEmpty()) {
        return List.of();
      }
      String[] names = new String[services.size()];
      for (int i = 0; i < names.length; i++) {
        names[i] = services.get(i).substring("Service/".length());
      }
      return List.of(names);
    }

    private static List<GslbStatus.Server> statusServers(Servers servers) {
      GslbStatus.Server[] list = new GslbStatus.Server[servers.hosts().size()];
      for (int i = 0; i < list.length; i++) {
        Servers.Server server = servers.hosts().get(i);
        list[i] = new GslbStatus.Server(server.host(), server.refs());
      }
      return List.of(list);
    }

    private static PeerReport report(PeerJudgement judged) {
      PeerAnswer answer = judged.answer();
      return new PeerReport(
          answer.geoTag(),
          answer.server(),
          answer.status().name(),
          TargetLists.concat(answer.ipv4(), answer.ipv6()),
          answer.lastSuccess(),
          answer.failingSince(),
          answer.observedAt(),
          judged.verdict().name(),
          judged.verdict().serving(),
          judged.trustedUntil(),
          judged.reason());
    }
  }

  // ------------------------------------------------------------------ small lists and strings

  /**
   * Keys and values added in ascending key order, turned into a map at the end: most Gslbs have one
   * host, and a one-entry map costs less than a {@code TreeMap} that the record copies anyway.
   */
  private static final class SortedPairs<V> {
    private String firstKey;
    private V firstValue;
    private TreeMap<String, V> more;

    void add(String key, V value) {
      if (firstKey == null) {
        firstKey = key;
        firstValue = value;
        return;
      }
      if (more == null) {
        more = new TreeMap<>();
        more.put(firstKey, firstValue);
      }
      more.put(key, value);
    }

    Map<String, V> toMap() {
      if (more != null) {
        return more;
      }
      return firstKey == null ? Map.of() : Map.of(firstKey, firstValue);
    }
  }

  /** {@code items} joined with {@code ", "}, as {@link String#join} does. */
  private static String joined(Collection<String> items) {
    if (items.size() == 1) {
      return items.iterator().next();
    }
    return String.join(", ", items);
  }

  private static void appendJoined(StringBuilder text, List<String> items) {
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        text.append(", ");
      }
      text.append(items.get(i));
    }
  }

  /** The lists one after the other, as an unmodifiable list. */
  @SafeVarargs
  private static <T> List<T> concat(List<T>... lists) {
    int size = 0;
    List<T> only = List.of();
    for (List<T> list : lists) {
      if (!list.isEmpty()) {
        only = size == 0 ? list : null;
        size += list.size();
      }
    }
    if (size == 0) {
      return List.of();
    }
    if (only != null) {
      return TargetLists.immutable(only);
    }
    Object[] all = new Object[size];
    int i = 0;
    for (List<T> list : lists) {
      for (T item : list) {
        all[i++] = item;
      }
    }
    @SuppressWarnings("unchecked")
    List<T> result = (List<T>) List.of(all);
    return result;
  }

  /** The items string-sorted, without duplicates. */
  private static List<String> sortedDistinct(List<String> items) {
    return TargetLists.sortedDistinct(items.toArray(new String[0]), items.size());
  }

  /** The items without duplicates, in order of first appearance, as an unmodifiable list. */
  private static List<String> distinct(List<String> items) {
    if (items.size() > 16) {
      return List.copyOf(new LinkedHashSet<>(items));
    }
    for (int i = 1; i < items.size(); i++) {
      if (items.subList(0, i).contains(items.get(i))) {
        return List.copyOf(new LinkedHashSet<>(items));
      }
    }
    return List.copyOf(items);
  }
}
