package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.decision.GslbStatus;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

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

  /** The prefix of the record that publishes this cluster's own targets for a host. */
  public static final String LOCAL_TARGETS_PREFIX = "localtargets-";

  /**
   * The DNSEndpoint labels: the selector of the DNS responder (k8gb's CoreDNS filter), in both of
   * k8gb's spellings (k8gb issue #2024).
   */
  public static final Map<String, String> DNS_ENDPOINT_LABELS =
      Map.of("k8gb.io/dnstype", "local", "k8gb.absa.oss/dnstype", "local");

  private static final Comparator<DnsRecord> RECORD_ORDER =
      Comparator.comparing(DnsRecord::dnsName).thenComparing(DnsRecord::recordType);

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
    private final Map<String, ServiceReport> serviceHealth = new HashMap<>();

    private final List<DnsRecord> records = new ArrayList<>();
    private final List<HostReport> hostReports = new ArrayList<>();
    private final List<String> hostLines = new ArrayList<>();
    private final List<String> trustLines = new ArrayList<>();
    private final List<String> strategyNotes = new ArrayList<>();
    private final List<Skipped> peerSkips = new ArrayList<>();
    private final Map<String, String> healthByHost = new TreeMap<>();
    private final Map<String, List<String>> healthyRecords = new TreeMap<>();
    private final TreeSet<String> chosenTargets = new TreeSet<>();
    private final List<String> peerHosts = new ArrayList<>();
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
      validated.blocking().forEach(findings::block);
      validated.notes().forEach(findings::note);
      gslb.problems().stream().filter(GslbDecider::blocksDecision).forEach(findings::block);
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
      for (Map.Entry<String, Servers.Server> entry : servers.hosts().entrySet()) {
        decideHost(entry.getKey(), entry.getValue(), me, spec, local.targets());
      }
      records.sort(RECORD_ORDER);
      List<String> fallbacks = new ArrayList<>(findings.fallbacks);
      fallbacks.addAll(trustLines);
      fallbacks.addAll(hostLines);
      fallbacks.addAll(strategyNotes);
      List<Skipped> skipped = new ArrayList<>(findings.skipped);
      skipped.addAll(peerSkips);
      String summary = summary(me, spec, servers, local, records);
      Explanation explanation =
          new Explanation(
              summary,
              backends(),
              List.copyOf(new TreeSet<>(findings.zones)),
              List.copyOf(new LinkedHashSet<>(findings.candidateNodes)),
              List.copyOf(chosenTargets),
              fallbacks,
              skipped);
      List<Problem> problems = problems();
      TargetDecision decision =
          new TargetDecision(
              gslb.ref(),
              API_VERSION,
              gslb.uid(),
              gslb.namespace(),
              gslb.name(),
              records.isEmpty() ? Disposition.NO_TARGETS : Disposition.PUBLISH,
              records,
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
              healthByHost,
              healthyRecords,
              String.join(", ", servers.hosts().keySet()),
              local.targets().all(),
              statusServers(servers),
              problems.stream().map(Problem::toString).toList());
      GslbReport report =
          new GslbReport(
              gslb.ref().key(),
              me,
              spec.strategy().type(),
              spec.ttlSeconds(),
              spec.splitBrainThreshold().toSeconds(),
              true,
              local.source(),
              local.targets().all(),
              hostReports,
              status.problems());
      GslbDependencies dependencies =
          new GslbDependencies(
              findings.route,
              List.copyOf(findings.services),
              peerHosts,
              local.placement(),
              reevaluateAt);
      return new GslbOutcome(decision, status, report, dependencies, problems);
    }

    /** Decides one host: its health, its peers, the strategy's choice and its records. */
    private void decideHost(
        String host, Servers.Server server, String me, GslbSpec spec, TagTargets local) {
      List<ServiceReport> services = new ArrayList<>();
      HostHealth health = health(server.services(), spec.policy(), services);
      healthByHost.put(host, health.text());
      String localName = LOCAL_TARGETS_PREFIX + host;
      Optional<Problem> nameProblem = Hostnames.check(localName, localName);
      if (nameProblem.isPresent()) {
        String reason =
            "the record name "
                + localName
                + " would be invalid ("
                + nameProblem.get().reason()
                + "), so peers could never read this cluster's targets; the host gets no"
                + " records, the other hosts are unaffected. Shorten its first label to at most "
                + (Hostnames.MAX_LABEL - LOCAL_TARGETS_PREFIX.length())
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
      List<PeerReport> peerReports = new ArrayList<>();
      SortedMap<String, TagTargets> peers = judgePeers(host, me, spec, peerReports);
      Selection selection = spec.strategy().select(me, serving, local, peers);
      if (serving) {
        for (Family family : Family.values()) {
          List<String> targets = local.of(family);
          if (!targets.isEmpty()) {
            records.add(
                new DnsRecord(
                    localName,
                    family.recordType(),
                    spec.ttlSeconds(),
                    List.copyOf(new TreeSet<>(targets)),
                    Map.of()));
          }
        }
      }
      List<String> hostTargets =
          hostRecords(records, host, spec.ttlSeconds(), spec.strategy(), selection, strategyNotes);
      if (!hostTargets.isEmpty()) {
        healthyRecords.put(host, hostTargets);
        chosenTargets.addAll(hostTargets);
      }
      hostLines.add(hostLine(host, selection, hostTargets));
      Map<String, List<String>> chosen = new LinkedHashMap<>();
      selection.chosen().forEach((tag, targets) -> chosen.put(tag, targets.all()));
      hostReports.add(
          new HostReport(
              host,
              health.text(),
              services,
              serving,
              peerReports,
              selection.branch().name(),
              selection.branch().description(),
              chosen,
              hostTargets,
              null));
    }

    /**
     * Judges every peer's answer for a host; returns the serving peers (k8gb's {@code E}) and notes
     * the earliest instant a trusted answer expires.
     */
    private SortedMap<String, TagTargets> judgePeers(
        String host, String me, GslbSpec spec, List<PeerReport> reports) {
      SortedMap<String, TagTargets> peers = new TreeMap<>();
      List<PeerAnswer> answers = new ArrayList<>(view.peerAnswers(host));
      answers.sort(Comparator.comparing(PeerAnswer::geoTag));
      for (PeerAnswer answer : answers) {
        PeerJudgement judged = PeerJudgement.judge(answer, me, spec.splitBrainThreshold(), now);
        reports.add(report(judged));
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
          peerSkips.add(new Skipped("peer " + judged.geoTag() + " for " + host, judged.reason()));
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
      List<String> added = new ArrayList<>();
      for (Family family : Family.values()) {
        TreeSet<String> targets = new TreeSet<>();
        selection.chosen().values().forEach(t -> targets.addAll(t.of(family)));
        if (targets.isEmpty()) {
          continue;
        }
        List<String> familyNotes = new ArrayList<>();
        Map<String, String> labels = strategy.labels(selection.chosen(), family, familyNotes);
        familyNotes.forEach(note -> notes.add(host + ": " + note + "."));
        records.add(new DnsRecord(host, family.recordType(), ttl, List.copyOf(targets), labels));
        added.addAll(targets);
      }
      return added;
    }

    private String hostLine(String host, Selection selection, List<String> targets) {
      StringBuilder line =
          new StringBuilder(host).append(": ").append(selection.branch().description());
      if (targets.isEmpty()) {
        return line.append(" → no record.").toString();
      }
      line.append(" → ");
      List<String> parts = new ArrayList<>();
      selection.chosen().forEach((tag, t) -> parts.add(tag + " " + String.join(", ", t.all())));
      return line.append(String.join("; ", parts)).append('.').toString();
    }

    private String summary(
        String me, GslbSpec spec, Servers servers, LocalTargets local, List<DnsRecord> records) {
      String context =
          "strategy "
              + spec.strategy().type()
              + " as geo tag "
              + me
              + ", local targets "
              + (local.targets().isEmpty() ? "none" : String.join(", ", local.targets().all()))
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
        List<String> serviceKeys, HealthPolicy policy, List<ServiceReport> reports) {
      int healthy = 0;
      int unhealthy = 0;
      int notFound = 0;
      for (String key : serviceKeys) {
        ServiceReport report = serviceHealth.computeIfAbsent(key, this::serviceHealth);
        reports.add(report);
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
      List<String> lines = problems.stream().map(Problem::toString).toList();
      GslbStatus status =
          new GslbStatus(
              gslb.namespace(),
              gslb.name(),
              gslb.uid(),
              me,
              Map.of(),
              Map.of(),
              servers == null ? null : String.join(", ", servers.hosts().keySet()),
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
              List.copyOf(findings.services),
              List.of(),
              local == null ? PlacementDependencies.NONE : local.placement(),
              null);
      return new GslbOutcome(null, status, report, dependencies, problems);
    }

    // ---------------------------------------------------------------- shared

    /**
     * The watcher's problems, then the engine's blocking problems and notes; an engine problem is
     * left out when the watcher already reported that field and value.
     */
    private List<Problem> problems() {
      LinkedHashSet<Problem> all = new LinkedHashSet<>(gslb.problems());
      List<Problem> engine = new ArrayList<>(findings.blocking);
      engine.addAll(findings.notes);
      for (Problem problem : engine) {
        boolean reported =
            all.stream()
                .anyMatch(
                    p ->
                        p.field().equals(problem.field())
                            && Objects.equals(p.value(), problem.value()));
        if (!reported) {
          all.add(problem);
        }
      }
      return List.copyOf(all);
    }

    private List<String> backends() {
      List<String> names = new ArrayList<>();
      findings.services.forEach(key -> names.add(key.substring("Service/".length())));
      return names;
    }

    private static List<GslbStatus.Server> statusServers(Servers servers) {
      List<GslbStatus.Server> list = new ArrayList<>();
      servers
          .hosts()
          .forEach(
              (host, server) -> {
                List<GslbStatus.ServiceRef> refs = new ArrayList<>();
                for (String key : server.services()) {
                  String[] parts = key.split("/", 3);
                  refs.add(new GslbStatus.ServiceRef(parts[1], parts[2]));
                }
                list.add(new GslbStatus.Server(host, refs));
              });
      return list;
    }

    private static PeerReport report(PeerJudgement judged) {
      PeerAnswer answer = judged.answer();
      List<String> targets = new ArrayList<>(answer.ipv4());
      targets.addAll(answer.ipv6());
      return new PeerReport(
          answer.geoTag(),
          answer.server(),
          answer.status().name(),
          targets,
          answer.lastSuccess(),
          answer.failingSince(),
          answer.observedAt(),
          judged.verdict().name(),
          judged.verdict().serving(),
          judged.trustedUntil(),
          judged.reason());
    }
  }
}
