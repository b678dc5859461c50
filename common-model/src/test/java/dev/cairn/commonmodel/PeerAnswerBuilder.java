package dev.cairn.commonmodel;

import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds {@link PeerAnswer}s; start with {@link TestRecords#aPeerAnswer()}. Defaults: peer {@code
 * eu} at {@code 192.0.2.53:53} answered OK for {@code app.cloud.example.com} with A {@code
 * 203.0.113.10}, TTL 30 s; last success and observation at {@link TestRecords#T0}.
 */
public final class PeerAnswerBuilder {

  private String host = "app.cloud.example.com";
  private String geoTag = "eu";
  private String server = "192.0.2.53:53";
  private ProbeStatus status = ProbeStatus.OK;
  private List<String> ipv4;
  private final List<String> ipv6 = new ArrayList<>();
  private Long ttlSeconds = 30L;
  private Instant lastSuccess = TestRecords.T0;
  private Instant failingSince;
  private Instant observedAt = TestRecords.T0;

  PeerAnswerBuilder() {}

  /** Sets the Gslb host asked about. */
  public PeerAnswerBuilder forHost(String host) {
    this.host = host;
    return this;
  }

  /** Sets the peer's geo tag. */
  public PeerAnswerBuilder from(String geoTag) {
    this.geoTag = geoTag;
    return this;
  }

  /** Sets the peer's DNS server, {@code address:port}. */
  public PeerAnswerBuilder server(String server) {
    this.server = server;
    return this;
  }

  /** Adds A targets (the default target is dropped on the first call). */
  public PeerAnswerBuilder withIpv4(String... targets) {
    if (ipv4 == null) {
      ipv4 = new ArrayList<>();
    }
    ipv4.addAll(List.of(targets));
    return this;
  }

  /** Adds AAAA targets. */
  public PeerAnswerBuilder withIpv6(String... targets) {
    ipv6.addAll(List.of(targets));
    return this;
  }

  /** Sets the TTL of the answer; {@code null} when it had no records. */
  public PeerAnswerBuilder withTtl(Long seconds) {
    this.ttlSeconds = seconds;
    return this;
  }

  /** Sets the status as is, leaving targets and times alone. */
  public PeerAnswerBuilder withStatus(ProbeStatus status) {
    this.status = status;
    return this;
  }

  /** The peer answered NXDOMAIN: no targets, no TTL, reachable. */
  public PeerAnswerBuilder nxdomain() {
    return answeredWithoutRecords(ProbeStatus.NXDOMAIN);
  }

  /** The peer answered NODATA: no targets, no TTL, reachable. */
  public PeerAnswerBuilder nodata() {
    return answeredWithoutRecords(ProbeStatus.NODATA);
  }

  /**
   * The peer has been unreachable (TIMEOUT) since the given instant; the targets of the last
   * successful answer are kept.
   */
  public PeerAnswerBuilder timingOutSince(Instant since) {
    this.status = ProbeStatus.TIMEOUT;
    this.failingSince = since;
    return this;
  }

  /** Sets when the peer last answered; {@code null} if never. */
  public PeerAnswerBuilder lastSuccess(Instant at) {
    this.lastSuccess = at;
    return this;
  }

  /** Sets when the current run of failures began; {@code null} when reachable. */
  public PeerAnswerBuilder failingSince(Instant since) {
    this.failingSince = since;
    return this;
  }

  /** Sets when this state was published. */
  public PeerAnswerBuilder observedAt(Instant at) {
    this.observedAt = at;
    return this;
  }

  /** The answer. */
  public PeerAnswer build() {
    return new PeerAnswer(
        host,
        geoTag,
        server,
        status,
        ipv4 != null ? ipv4 : List.of("203.0.113.10"),
        ipv6,
        ttlSeconds,
        lastSuccess,
        failingSince,
        observedAt);
  }

  private PeerAnswerBuilder answeredWithoutRecords(ProbeStatus answer) {
    this.status = answer;
    this.ipv4 = new ArrayList<>();
    this.ipv6.clear();
    this.ttlSeconds = null;
    this.failingSince = null;
    return this;
  }
}
