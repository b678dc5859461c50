package dev.cairn.commonmodel;

import dev.cairn.commonmodel.decision.Disposition;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.Explanation;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.GslbResourceRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.commonmodel.topology.NodeAddress;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServicePort;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import dev.cairn.commonmodel.validation.Problem;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The Java values of the golden files {@code contracts/v1/<Record>.json} (in this test-jar), one
 * per value type of {@link Topics#ALL}, with every field filled. They are written out constructor
 * by constructor, not with the builders, so that the golden test pins each field by position and
 * type. Other modules may use them as fully populated samples.
 */
public final class GoldenRecords {

  /**
   * One topic's golden message.
   *
   * @param topic the topic
   * @param key the Kafka key of the message
   * @param value the value the golden file decodes to
   */
  public record Golden(TopicSpec<?> topic, String key, Object value) {

    /** The classpath resource of the golden file, {@code contracts/v1/<Record>.json}. */
    public String resource() {
      return "contracts/v1/" + topic.valueType().getSimpleName() + ".json";
    }

    @Override
    public String toString() {
      return topic.valueType().getSimpleName();
    }
  }

  private static final Problem BAD_HOSTNAME =
      new Problem(
          "spec.hostnames[2]",
          "shop_old.example.com",
          "label 'shop_old' has the character '_'; only letters, digits and '-' are allowed");

  private GoldenRecords() {}

  /** Every golden message, in the order of {@link Topics#ALL}. */
  public static List<Golden> all() {
    return List.of(
        new Golden(Topics.ROUTES, "HTTPRoute/shop/storefront", route()),
        new Golden(Topics.SERVICES, "Service/shop/storefront", service()),
        new Golden(Topics.ENDPOINTS, "Service/shop/storefront", endpoints()),
        new Golden(Topics.NODES, "Node/worker-a1", node()),
        new Golden(Topics.GSLBS, "Gslb/shop/storefront", gslb()),
        new Golden(Topics.SYNC, "topology-watcher", syncMarker()),
        new Golden(Topics.PEER_ANSWERS, "PeerAnswer/us/shop.cloud.example.com", peerAnswer()),
        new Golden(
            Topics.HOSTNAME_RESOLUTIONS,
            "192.0.2.53:53|storefront-1234.lb.example.net",
            hostnameResolution()),
        new Golden(Topics.DECISIONS, "HTTPRoute/shop/storefront", decision()),
        new Golden(Topics.GSLB_STATUS, "Gslb/shop/storefront", gslbStatus()));
  }

  /** {@code RouteState.json}. */
  public static RouteState route() {
    return new RouteState(
        "HTTPRoute",
        "gateway.networking.k8s.io/v1",
        "shop",
        "storefront",
        "0b5e3f2a-8c1d-4e6f-9a7b-3c2d1e0f4a5b",
        List.of("shop.example.com", "www.shop.example.com", "shop_old.example.com"),
        List.of(
            new BackendRef("", "Service", "shop", "storefront", 8080, 90),
            new BackendRef("", "Service", "shop", "storefront-canary", 8080, 10)),
        List.of("203.0.113.20", "2001:db8::20"),
        List.of("storefront-ingress.lb.example.net"),
        Map.of(
            "directdns.meisterlala.dev/enabled", "true",
            "directdns.meisterlala.dev/ttl", "60",
            "external-dns.alpha.kubernetes.io/hostname", "shop.example.org"),
        List.of(BAD_HOSTNAME),
        new RouteState.Controller(
            "k8gb.io/v1beta1", "Gslb", "storefront", "5a4f0e1d-2c3b-4a7b-9f6e-1d8c2a3f5e0b"),
        Map.of("app.kubernetes.io/name", "storefront", "tier", "web"),
        List.of(
            new RouteState.ParentRef(
                "gateway.networking.k8s.io", "Gateway", "edge", "public", "https")),
        List.of(
            new RouteState.Rule(
                "shop.example.com",
                List.of(new BackendRef("", "Service", "shop", "storefront", 8080, 90))),
            new RouteState.Rule(
                "www.shop.example.com",
                List.of(
                    new BackendRef("", "Service", "shop", "storefront", 8080, 90),
                    new BackendRef("", "Service", "shop", "storefront-canary", 8080, 10)))));
  }

  /** {@code ServiceState.json}. */
  public static ServiceState service() {
    return new ServiceState(
        "shop",
        "storefront",
        "7d9c0e1f-2a3b-4c5d-8e6f-0a1b2c3d4e5f",
        "LoadBalancer",
        List.of("203.0.113.10", "2001:db8::10"),
        List.of("storefront-1234.lb.example.net"),
        List.of(new ServicePort("http", "TCP", 80), new ServicePort("https", "TCP", 443)),
        Map.of("k8gb.io/hostname", "shop.cloud.example.com"),
        List.of(
            new Problem(
                "status.loadBalancer.ingress[2].ip",
                "010.0.0.1",
                "not a strict IPv4 or IPv6 address literal")),
        Map.of("app.kubernetes.io/name", "storefront"));
  }

  /** {@code ServiceEndpoints.json}. */
  public static ServiceEndpoints endpoints() {
    return new ServiceEndpoints(
        "shop",
        "storefront",
        List.of(
            new EndpointState(List.of("10.244.1.17"), "worker-a1", "eu-west-1a", true, true, false),
            new EndpointState(
                List.of("10.244.2.9", "fd00:10:244:2::9"),
                "worker-b1",
                "eu-west-1b",
                false,
                true,
                true)),
        List.of(
            new Problem(
                "endpointSlices[storefront-x7k2p].endpoints[2].addresses[0]",
                "10.244.3",
                "not a strict IPv4 or IPv6 address literal")));
  }

  /** {@code NodeState.json}. */
  public static NodeState node() {
    return new NodeState(
        "worker-a1",
        "eu-west-1a",
        "eu-west-1",
        true,
        List.of(
            new NodeAddress("InternalIP", "10.0.1.11"),
            new NodeAddress("ExternalIP", "203.0.113.11"),
            new NodeAddress("ExternalIP", "2001:db8::11"),
            new NodeAddress("ExternalDNS", "worker-a1.nodes.example.com")),
        Map.of(
            "directdns.meisterlala.dev/target", "203.0.113.111",
            "k3s.io/external-dns", "-bad-.example.com"),
        List.of(
            new Problem(
                "metadata.annotations[k3s.io/external-dns]",
                "-bad-.example.com",
                "label '-bad-' starts or ends with a hyphen")));
  }

  /** {@code GslbState.json}. */
  public static GslbState gslb() {
    return new GslbState(
        "shop",
        "storefront",
        "3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7",
        new GslbResourceRef(
            "networking.k8s.io/v1",
            "Ingress",
            "shop",
            "storefront",
            Map.of("app.kubernetes.io/name", "storefront"),
            List.of(
                new GslbResourceRef.LabelSelectorRequirement(
                    "tier", "In", List.of("frontend", "web")))),
        List.of(
            new GslbState.IngressRule(
                "shop.cloud.example.com",
                List.of(new BackendRef("", "Service", "shop", "storefront", 80, 1)))),
        new GslbStrategy("failover", 30, "eu", Map.of("eu", 60, "us", 40), 300),
        "Any",
        Map.of("k8gb.io/exposed-ip-addresses", "203.0.113.10,203.0.113.300"),
        List.of(
            new Problem(
                "metadata.annotations[k8gb.io/exposed-ip-addresses][1]",
                "203.0.113.300",
                "not a strict IPv4 or IPv6 address literal")));
  }

  /** {@code SyncMarker.json}. */
  public static SyncMarker syncMarker() {
    return new SyncMarker(
        "2026-11-29T11:59:58.104213Z-5de7f36f",
        SyncMarker.Phase.SYNCED,
        Instant.parse("2026-11-29T12:00:03.250Z"),
        Map.ofEntries(
            Map.entry("GRPCRoute", 0),
            Map.entry("Gateway", 1),
            Map.entry("Gslb", 2),
            Map.entry("HTTPRoute", 14),
            Map.entry("Ingress", 3),
            Map.entry("Node", 6),
            Map.entry("Service", 21),
            Map.entry("ServiceEndpoints", 25),
            Map.entry("TCPRoute", 0),
            Map.entry("TLSRoute", 0),
            Map.entry("UDPRoute", 0),
            Map.entry("VirtualService", 0)));
  }

  /** {@code PeerAnswer.json}. */
  public static PeerAnswer peerAnswer() {
    return new PeerAnswer(
        "shop.cloud.example.com",
        "us",
        "198.51.100.53:53",
        ProbeStatus.TIMEOUT,
        List.of("198.51.100.20", "198.51.100.21"),
        List.of("2001:db8:100::20"),
        30L,
        Instant.parse("2026-11-29T11:59:30Z"),
        Instant.parse("2026-11-29T11:59:40Z"),
        Instant.parse("2026-11-29T12:00:00Z"));
  }

  /** {@code HostnameResolution.json}. */
  public static HostnameResolution hostnameResolution() {
    return new HostnameResolution(
        "storefront-1234.lb.example.net",
        "192.0.2.53:53",
        ProbeStatus.SERVFAIL,
        List.of("198.51.100.7", "198.51.100.8"),
        List.of("2001:db8:200::7"),
        Instant.parse("2026-11-29T11:58:00Z"),
        Instant.parse("2026-11-29T12:03:00Z"),
        true);
  }

  /** {@code TargetDecision.json}. */
  public static TargetDecision decision() {
    return new TargetDecision(
        ObjectRef.of("HTTPRoute", "shop", "storefront"),
        "gateway.networking.k8s.io/v1",
        "0b5e3f2a-8c1d-4e6f-9a7b-3c2d1e0f4a5b",
        "shop",
        "httproute-storefront-1c6f0e2a",
        Disposition.PUBLISH,
        List.of(
            new DnsRecord(
                "shop.example.com",
                "A",
                60,
                List.of("203.0.113.11", "203.0.113.12"),
                Map.of(
                    "strategy", "roundRobin",
                    "weight-eu-0-60", "203.0.113.11",
                    "weight-eu-1-60", "203.0.113.12")),
            new DnsRecord(
                "shop.example.com",
                "AAAA",
                60,
                List.of("2001:db8::11"),
                Map.of("strategy", "roundRobin"))),
        Map.of("k8gb.absa.oss/dnstype", "local", "k8gb.io/dnstype", "local"),
        300L,
        new Explanation(
            "published 2 records: ingress nodes in the backends' zones eu-west-1a and eu-west-1b",
            List.of("shop/storefront", "shop/storefront-canary"),
            List.of("eu-west-1a", "eu-west-1b"),
            List.of("worker-a1", "worker-b1", "worker-c1"),
            List.of("203.0.113.11", "203.0.113.12", "2001:db8::11"),
            List.of(
                "shop/storefront-canary has no ready endpoint; used the zones of shop/storefront"),
            List.of(new Explanation.Skipped("node worker-c1", "no ExternalIP address"))),
        List.of(BAD_HOSTNAME));
  }

  /** {@code GslbStatus.json}. */
  public static GslbStatus gslbStatus() {
    return new GslbStatus(
        "shop",
        "storefront",
        "5d7c9e1a-2b3f-4c6d-8e0f-1a2b3c4d5e6f",
        "eu",
        Map.of("shop.cloud.example.com", "Healthy", "api.cloud.example.com", "Unhealthy"),
        Map.of("shop.cloud.example.com", List.of("198.51.100.7", "203.0.113.11")),
        "api.cloud.example.com, shop.cloud.example.com",
        List.of("203.0.113.11", "2001:db8::11"),
        List.of(
            new GslbStatus.Server(
                "shop.cloud.example.com", List.of(new GslbStatus.ServiceRef("shop", "storefront"))),
            new GslbStatus.Server(
                "api.cloud.example.com", List.of(new GslbStatus.ServiceRef("shop", "api")))),
        List.of("spec.strategy.weight[us]=1200: weight must be between 0 and 1000"));
  }
}
