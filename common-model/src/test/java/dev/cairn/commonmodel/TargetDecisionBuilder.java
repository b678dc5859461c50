package dev.cairn.commonmodel;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds {@link TargetDecision}s; start with {@link TestRecords#aDecision()}. Defaults: PUBLISH for
 * HTTPRoute {@code default/app} (apiVersion {@code gateway.networking.k8s.io/v1}, uid derived from
 * the reference) with one record {@code app.example.com} A 30 {@code 203.0.113.10}. Unless {@link
 * #named} is called, the DNSEndpoint lives in the source's namespace and is called {@code
 * <lower-case kind>-<source name>}, e.g. {@code httproute-app}.
 */
public final class TargetDecisionBuilder {

  private ObjectRef source = ObjectRef.of("HTTPRoute", "default", "app");
  private String sourceApiVersion = "gateway.networking.k8s.io/v1";
  private String sourceUid;
  private boolean sourceUidSet;
  private String namespace;
  private String name;
  private Disposition disposition = Disposition.PUBLISH;
  private List<DnsRecord> records;
  private final Map<String, String> labels = new LinkedHashMap<>();
  private Long gracePeriodSeconds;
  private Explanation explanation;
  private final List<Problem> problems = new ArrayList<>();

  TargetDecisionBuilder() {}

  /** Decides for an HTTPRoute. */
  public TargetDecisionBuilder forRoute(String namespace, String name) {
    return forSource(ObjectRef.of("HTTPRoute", namespace, name), "gateway.networking.k8s.io/v1");
  }

  /** Decides for an Ingress. */
  public TargetDecisionBuilder forIngress(String namespace, String name) {
    return forSource(ObjectRef.of("Ingress", namespace, name), "networking.k8s.io/v1");
  }

  /** Decides for a Gslb. */
  public TargetDecisionBuilder forGslb(String namespace, String name) {
    return forSource(ObjectRef.of("Gslb", namespace, name), "k8gb.io/v1beta1");
  }

  /** Decides for any source object. */
  public TargetDecisionBuilder forSource(ObjectRef source, String apiVersion) {
    this.source = source;
    this.sourceApiVersion = apiVersion;
    return this;
  }

  /** Sets the source uid; {@code null} means unknown. */
  public TargetDecisionBuilder withSourceUid(String uid) {
    this.sourceUid = uid;
    this.sourceUidSet = true;
    return this;
  }

  /** Sets the DNSEndpoint's namespace and name. */
  public TargetDecisionBuilder named(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
    return this;
  }

  /** Adds an A record (the default record is dropped on the first added record). */
  public TargetDecisionBuilder withARecord(String dnsName, long ttlSeconds, String... targets) {
    return withRecord(DnsRecord.of(dnsName, "A", ttlSeconds, List.of(targets)));
  }

  /** Adds an AAAA record. */
  public TargetDecisionBuilder withAaaaRecord(String dnsName, long ttlSeconds, String... targets) {
    return withRecord(DnsRecord.of(dnsName, "AAAA", ttlSeconds, List.of(targets)));
  }

  /** Adds a record as written. */
  public TargetDecisionBuilder withRecord(DnsRecord record) {
    if (records == null) {
      records = new ArrayList<>();
    }
    records.add(record);
    return this;
  }

  /** PUBLISH (the default): write the records. */
  public TargetDecisionBuilder publish() {
    this.disposition = Disposition.PUBLISH;
    return this;
  }

  /** NO_TARGETS: nothing usable now, no records; keep the last ones during the grace period. */
  public TargetDecisionBuilder noTargets() {
    this.disposition = Disposition.NO_TARGETS;
    this.records = new ArrayList<>();
    return this;
  }

  /** WITHDRAW: the source wants no record, no records; delete now. */
  public TargetDecisionBuilder withdraw() {
    this.disposition = Disposition.WITHDRAW;
    this.records = new ArrayList<>();
    return this;
  }

  /** Adds or replaces a DNSEndpoint label. */
  public TargetDecisionBuilder withLabel(String key, String value) {
    labels.put(key, value);
    return this;
  }

  /** Sets the grace period override; {@code null} for the writer's default. */
  public TargetDecisionBuilder withGracePeriod(Long seconds) {
    this.gracePeriodSeconds = seconds;
    return this;
  }

  /** Sets an explanation with only a summary. */
  public TargetDecisionBuilder explainedAs(String summary) {
    return withExplanation(Explanation.of(summary));
  }

  /** Sets the explanation. */
  public TargetDecisionBuilder withExplanation(Explanation explanation) {
    this.explanation = explanation;
    return this;
  }

  /** Adds a problem found in the inputs. */
  public TargetDecisionBuilder withProblem(Problem problem) {
    problems.add(problem);
    return this;
  }

  /** The decision. */
  public TargetDecision build() {
    List<DnsRecord> recs =
        records != null
            ? records
            : List.of(DnsRecord.of("app.example.com", "A", 30, List.of("203.0.113.10")));
    return new TargetDecision(
        source,
        sourceApiVersion,
        sourceUidSet ? sourceUid : TestRecords.uidOf(source),
        namespace != null ? namespace : source.namespace(),
        name != null ? name : source.kind().toLowerCase(Locale.ROOT) + "-" + source.name(),
        disposition,
        recs,
        labels,
        gracePeriodSeconds,
        explanation != null ? explanation : Explanation.of(defaultSummary(recs)),
        problems);
  }

  private String defaultSummary(List<DnsRecord> recs) {
    return switch (disposition) {
      case PUBLISH -> "published " + recs.size() + " record(s) for " + source;
      case NO_TARGETS -> "no usable targets for " + source;
      case WITHDRAW -> "withdrew the record of " + source;
    };
  }
}
