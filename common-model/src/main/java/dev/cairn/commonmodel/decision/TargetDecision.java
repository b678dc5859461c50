package dev.cairn.commonmodel.decision;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The desired DNSEndpoint for one source object: an HTTPRoute (its direct-dns record) or a Gslb
 * (its k8gb records). Published by the strategy-engine on {@code cairn.decision.targets.v1}, keyed
 * by the source's {@link ObjectRef#key()}; a tombstone means the source is gone and its record must
 * be deleted.
 *
 * @param source the object the record is derived from
 * @param sourceApiVersion the source's apiVersion, for the owner reference
 * @param sourceUid the source's uid, for the owner reference ({@code null} if unknown)
 * @param namespace the DNSEndpoint namespace
 * @param name the DNSEndpoint name, a valid Kubernetes name
 * @param disposition publish, keep during grace (no targets) or withdraw
 * @param records the desired endpoints, sorted by name then type
 * @param labels extra labels for the DNSEndpoint object (e.g. {@code k8gb.io/dnstype})
 * @param gracePeriodSeconds the stale-endpoint grace period override, {@code null} for the writer's
 *     default
 * @param explanation why the decision came out this way
 * @param problems invalid inputs that were reported and left out
 */
public record TargetDecision(
    ObjectRef source,
    String sourceApiVersion,
    String sourceUid,
    String namespace,
    String name,
    Disposition disposition,
    List<DnsRecord> records,
    Map<String, String> labels,
    Long gracePeriodSeconds,
    Explanation explanation,
    List<Problem> problems) {

  public TargetDecision {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(disposition, "disposition");
    Objects.requireNonNull(explanation, "explanation");
    records = Copies.list(records);
    labels = Copies.sortedMap(labels);
    problems = Copies.list(problems);
    if (disposition == Disposition.PUBLISH && records.isEmpty()) {
      throw new IllegalArgumentException("a PUBLISH decision needs at least one record");
    }
  }

  /** The same decision with another explanation; used to compare decisions without it. */
  public TargetDecision withExplanation(Explanation other) {
    return new TargetDecision(
        source,
        sourceApiVersion,
        sourceUid,
        namespace,
        name,
        disposition,
        records,
        labels,
        gracePeriodSeconds,
        other,
        problems);
  }
}
