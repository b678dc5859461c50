package dev.cairn.recordwriter.web;

import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.delegation.DelegationPublisher;
import dev.cairn.recordwriter.kafka.StateFeed;
import dev.cairn.recordwriter.kube.DnsEndpointCache;
import dev.cairn.recordwriter.kube.DnsEndpointMapper;
import dev.cairn.recordwriter.plan.CurrentRecord;
import dev.cairn.recordwriter.plan.Endpoint;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Outcome;
import dev.cairn.recordwriter.plan.Ownership;
import dev.cairn.recordwriter.reconcile.RecordReport;
import dev.cairn.recordwriter.reconcile.RecordReports;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The writer's explain API: what it concluded for a DNSEndpoint and why (conflicts with both owners
 * named, rejected endpoints with reasons, grace period), what it last wrote, the decision it
 * applied and the object as it is now.
 */
@RestController
@RequestMapping("/api/v1/records")
public final class RecordsController {

  private final RecordReports reports;
  private final DnsEndpointCache cache;
  private final DnsEndpointMapper mapper;
  private final StateFeed<TargetDecision> feed;
  private final DelegationPublisher delegation;

  /** Explains from these parts. */
  public RecordsController(
      RecordReports reports,
      DnsEndpointCache cache,
      DnsEndpointMapper mapper,
      StateFeed<TargetDecision> feed,
      DelegationPublisher delegation) {
    this.reports = reports;
    this.cache = cache;
    this.mapper = mapper;
    this.feed = feed;
    this.delegation = delegation;
  }

  /**
   * The explanation of one DNSEndpoint.
   *
   * @param report the writer's last conclusion, or {@code null} if it never planned the object
   * @param decision the decision applied, or {@code null}
   * @param object the object as the writer sees it now, or {@code null} when it does not exist
   */
  public record Explanation(RecordReport report, DecisionView decision, ObjectView object) {}

  /**
   * The decision behind a record.
   *
   * @param source the source key
   * @param disposition publish, no targets or withdraw
   * @param summary the engine's one-sentence explanation
   * @param gracePeriodSeconds the grace override, or {@code null}
   * @param problems problems the engine reported
   * @param invalid why the writer could not use the decision at all, or {@code null}
   */
  public record DecisionView(
      String source,
      String disposition,
      String summary,
      Long gracePeriodSeconds,
      List<Problem> problems,
      Problem invalid) {}

  /**
   * A DNSEndpoint as it is.
   *
   * @param owned whether Cairn owns it
   * @param holder who holds it, in words
   * @param resourceVersion its resourceVersion
   * @param labels its labels
   * @param annotations its annotations
   * @param endpoints its endpoints, normalised
   */
  public record ObjectView(
      boolean owned,
      String holder,
      String resourceVersion,
      Map<String, String> labels,
      Map<String, String> annotations,
      List<Endpoint> endpoints) {}

  /** Explains one DNSEndpoint; 404 when the writer knows nothing about it. */
  @GetMapping("/{namespace}/{name}")
  public ResponseEntity<String> explain(@PathVariable String namespace, @PathVariable String name) {
    ObjectKey key = ObjectKey.of(namespace, name);
    Optional<RecordReport> report = reports.get(key);
    ObjectView object =
        cache.get(key).map(mapper::toCurrent).map(RecordsController::view).orElse(null);
    if (report.isEmpty() && object == null) {
      return ApiError.notFound(
          "the writer knows no DNSEndpoint "
              + namespace
              + "/"
              + name
              + " (it is named after the DNSEndpoint, not its source; see ?source=)");
    }
    String source = report.map(RecordReport::source).orElse(null);
    if (source == null && object != null && object.owned()) {
      source = object.annotations().get(Ownership.SOURCE_ANNOTATION);
    }
    return JsonAnswer.ok(
        new Explanation(report.orElse(null), source == null ? null : decision(source), object));
  }

  /**
   * The records of one source ({@code ?source=HTTPRoute/ns/name}) or in one state ({@code
   * ?state=CONFLICT}, {@code IN_GRACE}, ...); 400 for an unknown state or no filter.
   */
  @GetMapping
  public ResponseEntity<String> list(
      @RequestParam(required = false) String state, @RequestParam(required = false) String source) {
    if (source != null) {
      return JsonAnswer.ok(reports.ofSource(source));
    }
    if (state != null) {
      for (Outcome.State s : Outcome.State.values()) {
        if (s.name().equalsIgnoreCase(state)) {
          return JsonAnswer.ok(reports.inState(s));
        }
      }
    }
    List<String> states = Stream.of(Outcome.State.values()).map(Enum::name).toList();
    return ApiError.badRequest(
        state == null
            ? "use /api/v1/records/{namespace}/{name}, /api/v1/records?source=<Kind>/<namespace>/<name>"
                + " or /api/v1/records?state=<state>"
            : "state must be one of " + String.join(", ", states) + ", got '" + state + "'");
  }

  private DecisionView decision(String source) {
    TargetDecision d = feed.get(source);
    if (d == null) {
      d = delegation.decision(source);
    }
    Problem invalid = reports.invalidDecisions().get(source);
    if (d == null) {
      return new DecisionView(
          source, null, "no decision (the source is gone)", null, List.of(), null);
    }
    return new DecisionView(
        source,
        d.disposition().name(),
        d.explanation().summary(),
        d.gracePeriodSeconds(),
        d.problems(),
        invalid);
  }

  private static ObjectView view(CurrentRecord c) {
    return new ObjectView(
        c.owned(), c.holder(), c.version(), c.labels(), c.annotations(), c.endpoints());
  }
}
