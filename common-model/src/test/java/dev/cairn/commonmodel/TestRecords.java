package dev.cairn.commonmodel;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * Test data builders for every contract record, shipped in common-model's test-jar so that every
 * service's tests build messages the same way.
 *
 * <p>Each {@code a…()} method returns a fresh, mutable builder whose defaults make a valid, typical
 * record; a test sets only what it is about, for example:
 *
 * <pre>{@code
 * RouteState route =
 *     TestRecords.aRoute().named("default", "app").withHostnames("app.example.com")
 *         .withBackend("web").build();
 * NodeState node = TestRecords.aNode("n1").inZone("a").ingress().withExternalIp("203.0.113.10").build();
 * ServiceEndpoints eps = TestRecords.anEndpoints("default", "web").withReadyEndpointOn("n1").build();
 * }</pre>
 *
 * <p>List-valued settings follow one rule: a default list is used only until the test adds the
 * first element of its own, so {@code aRoute().withBackend("api")} has exactly one backend, {@code
 * api}. Builders are not thread-safe; {@code build()} may be called more than once. Times default
 * to {@link #T0}, never the clock, so records compare equal across runs.
 */
public final class TestRecords {

  /** The instant every builder uses unless told otherwise: {@code 2026-11-29T12:00:00Z}. */
  public static final Instant T0 = Instant.parse("2026-11-29T12:00:00Z");

  private TestRecords() {}

  /**
   * An HTTPRoute {@code default/app} for {@code app.example.com}, backed by Service {@code web}.
   */
  public static RouteStateBuilder aRoute() {
    return new RouteStateBuilder();
  }

  /** A ClusterIP Service {@code default/web} with one port, {@code http} TCP 80. */
  public static ServiceStateBuilder aService() {
    return new ServiceStateBuilder();
  }

  /** The endpoints of Service {@code namespace/service}; none until the test adds some. */
  public static ServiceEndpointsBuilder anEndpoints(String namespace, String service) {
    return new ServiceEndpointsBuilder(namespace, service);
  }

  /** A node without zone, region, ingress role or addresses; the test adds what it needs. */
  public static NodeStateBuilder aNode(String name) {
    return new NodeStateBuilder(name);
  }

  /**
   * A Gslb {@code default/app} referencing Ingress {@code app} with a {@code roundRobin} strategy,
   * TTL 30 s and a split-brain threshold of 300 s.
   */
  public static GslbStateBuilder aGslb() {
    return new GslbStateBuilder();
  }

  /** A SYNCED marker of generation {@code gen-1} at {@link #T0}, without object counts. */
  public static SyncMarkerBuilder aSyncMarker() {
    return new SyncMarkerBuilder();
  }

  /**
   * An OK answer from peer {@code eu} ({@code 192.0.2.53:53}) for {@code app.cloud.example.com}: A
   * {@code 203.0.113.10}, TTL 30 s, observed at {@link #T0}.
   */
  public static PeerAnswerBuilder aPeerAnswer() {
    return new PeerAnswerBuilder();
  }

  /**
   * A fresh OK resolution of {@code lb.example.net} through {@code 192.0.2.53:53}: A {@code
   * 198.51.100.7}, resolved at {@link #T0}, expiring 300 s later.
   */
  public static HostnameResolutionBuilder aHostnameResolution() {
    return new HostnameResolutionBuilder();
  }

  /**
   * A PUBLISH decision for HTTPRoute {@code default/app}: DNSEndpoint {@code default/app} with one
   * record, {@code app.example.com} A 30 {@code 203.0.113.10}.
   */
  public static TargetDecisionBuilder aDecision() {
    return new TargetDecisionBuilder();
  }

  /**
   * A stable, realistic uid for an object: the same reference always gives the same uid, so records
   * built twice compare equal.
   */
  public static String uidOf(ObjectRef ref) {
    return UUID.nameUUIDFromBytes(ref.key().getBytes(StandardCharsets.UTF_8)).toString();
  }
}
