package dev.cairn.commonmodel;

import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds {@link HostnameResolution}s; start with {@link TestRecords#aHostnameResolution()}.
 * Defaults: {@code lb.example.net} resolved OK through {@code 192.0.2.53:53} to A {@code
 * 198.51.100.7} at {@link TestRecords#T0}, expiring 300 s later, not stale.
 */
public final class HostnameResolutionBuilder {

  private String hostname = "lb.example.net";
  private String server = "192.0.2.53:53";
  private ProbeStatus status = ProbeStatus.OK;
  private List<String> ipv4;
  private final List<String> ipv6 = new ArrayList<>();
  private Instant resolvedAt = TestRecords.T0;
  private Instant expiresAt = TestRecords.T0.plusSeconds(300);
  private boolean stale;

  HostnameResolutionBuilder() {}

  /** Sets the resolved name. */
  public HostnameResolutionBuilder forHostname(String hostname) {
    this.hostname = hostname;
    return this;
  }

  /** Sets the resolver, {@code address:port}. */
  public HostnameResolutionBuilder server(String server) {
    this.server = server;
    return this;
  }

  /** Adds A answers (the default answer is dropped on the first call). */
  public HostnameResolutionBuilder withIpv4(String... addresses) {
    if (ipv4 == null) {
      ipv4 = new ArrayList<>();
    }
    ipv4.addAll(List.of(addresses));
    return this;
  }

  /** Adds AAAA answers. */
  public HostnameResolutionBuilder withIpv6(String... addresses) {
    ipv6.addAll(List.of(addresses));
    return this;
  }

  /** Sets the status of the latest lookup as is. */
  public HostnameResolutionBuilder withStatus(ProbeStatus status) {
    this.status = status;
    return this;
  }

  /** The latest lookup failed with this status; the last good answer is kept and marked stale. */
  public HostnameResolutionBuilder staleAfter(ProbeStatus failure) {
    this.status = failure;
    this.stale = true;
    return this;
  }

  /** The name was never resolved: the given failure, no answers, no times. */
  public HostnameResolutionBuilder neverResolved(ProbeStatus failure) {
    this.status = failure;
    this.ipv4 = new ArrayList<>();
    this.ipv6.clear();
    this.resolvedAt = null;
    this.expiresAt = null;
    this.stale = false;
    return this;
  }

  /** Sets when the last good answer arrived. */
  public HostnameResolutionBuilder resolvedAt(Instant at) {
    this.resolvedAt = at;
    return this;
  }

  /** Sets when the last good answer's TTL runs out. */
  public HostnameResolutionBuilder expiresAt(Instant at) {
    this.expiresAt = at;
    return this;
  }

  /** The resolution. */
  public HostnameResolution build() {
    return new HostnameResolution(
        hostname,
        server,
        status,
        ipv4 != null ? ipv4 : List.of("198.51.100.7"),
        ipv6,
        resolvedAt,
        expiresAt,
        stale);
  }
}
