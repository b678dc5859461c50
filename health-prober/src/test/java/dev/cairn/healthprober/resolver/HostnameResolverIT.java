package dev.cairn.healthprober.resolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.MutableClock;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.TestDnsServer;
import dev.cairn.healthprober.kafka.InMemoryTopology;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.RecordingOutbox;
import dev.cairn.healthprober.resolution.ResolutionKey;
import dev.cairn.healthprober.resolution.ResolutionPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HostnameResolverIT {

  private static final String TOPIC = "cairn.health.hostname-resolutions.v1";

  private TestDnsServer dns;
  private DnsClient client;
  private InMemoryTopology topology;
  private RecordingOutbox recorded;
  private MutableClock clock;
  private HostnameResolver resolver;
  private String key;

  @BeforeEach
  void start() throws Exception {
    dns = TestDnsServer.start("127.0.0.1", "example.test");
    client = new DnsClient(new DnsClient.Settings(1, 1232, 1));
    topology = new InMemoryTopology();
    Outbox outbox = new Outbox();
    recorded = new RecordingOutbox(outbox);
    clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    resolver =
        new HostnameResolver(
            new HostnameResolver.Settings(
                false,
                true,
                dns.address().toString(),
                new ResolutionPolicy(
                    Duration.ofSeconds(5), Duration.ofHours(1), Duration.ofSeconds(60)),
                Duration.ofMillis(300),
                1,
                Duration.ofSeconds(1)),
            topology,
            new DnsLookup(client, 64),
            outbox,
            TOPIC,
            clock);
    key = dns.address() + "|edge.example.test";
    topology.put(
        new RouteState(
            "HTTPRoute",
            "gateway.networking.k8s.io/v1",
            "default",
            "web",
            "uid",
            List.of("web.example.com"),
            List.of(BackendRef.service("web")),
            Map.of("directdns.meisterlala.dev/resolve-target-hostnames", "true"),
            List.of()));
    topology.put(
        new NodeState(
            "edge",
            "z1",
            "r1",
            true,
            List.of(),
            Map.of("k3s.io/external-dns", "Edge.Example.test"),
            List.of()));
  }

  @AfterEach
  void stop() {
    resolver.close();
    client.close();
    dns.close();
  }

  private HostnameResolution latest() {
    return (HostnameResolution) recorded.latest(TOPIC).get(key);
  }

  @Test
  void resolvesANodeHostnameThroughTheConfiguredResolver() {
    dns.answer("edge.example.test", "192.0.2.20", "2001:db8::20");

    resolver.tick();

    await().until(() -> latest() != null);
    HostnameResolution r = latest();
    assertThat(r.hostname()).isEqualTo("edge.example.test");
    assertThat(r.server()).isEqualTo(dns.address().toString());
    assertThat(r.status()).isEqualTo(ProbeStatus.OK);
    assertThat(r.ipv4()).containsExactly("192.0.2.20");
    assertThat(r.ipv6()).containsExactly("2001:db8::20");
    assertThat(r.expiresAt()).isEqualTo(clock.instant().plusSeconds(30));
    assertThat(r.stale()).isFalse();
  }

  @Test
  void asksAgainOnlyWhenTheTtlRunsOutAndKeepsTheLastGoodAnswerOnFailure() {
    dns.answer("edge.example.test", "192.0.2.20");
    resolver.tick();
    await().until(() -> latest() != null && resolver.state(ResolutionKey.parse(key)) != null);
    int asked = dns.queries("edge.example.test");

    clock.advance(Duration.ofSeconds(10));
    resolver.tick();
    assertThat(dns.queries("edge.example.test")).isEqualTo(asked);

    dns.mode("edge.example.test", TestDnsServer.Mode.SERVFAIL);
    clock.advance(Duration.ofSeconds(20));
    resolver.tick();

    await().until(() -> latest().stale());
    assertThat(latest().status()).isEqualTo(ProbeStatus.SERVFAIL);
    assertThat(latest().ipv4()).containsExactly("192.0.2.20");
  }

  @Test
  void withdrawsAHostnameNoLongerNeeded() {
    dns.answer("edge.example.test", "192.0.2.20");
    resolver.tick();
    await().until(() -> latest() != null);

    topology.removeRoute("HTTPRoute/default/web");
    resolver.tick();

    assertThat(recorded.latest(TOPIC)).containsEntry(key, null);
  }

  @Test
  void resolvesTheLoadBalancerHostnamesOfIngressesAndServicesAndWithdrawsThem() {
    dns.answer("elb-1.example.test", "192.0.2.31", "2001:db8::31");
    dns.answer("svc-lb.example.test", "192.0.2.32");
    topology.put(
        new RouteState(
            "Ingress",
            "networking.k8s.io/v1",
            "default",
            "shop",
            "uid",
            List.of("shop.example.com"),
            List.of(BackendRef.service("shop")),
            List.of(),
            List.of("ELB-1.Example.test."),
            Map.of(),
            List.of(),
            null));
    topology.put(
        new ServiceState(
            "default",
            "api",
            "uid",
            "LoadBalancer",
            List.of(),
            List.of("svc-lb.example.test"),
            List.of(),
            Map.of(),
            List.of()));
    String ingressKey = dns.address() + "|elb-1.example.test";
    String serviceKey = dns.address() + "|svc-lb.example.test";

    resolver.tick();

    await()
        .untilAsserted(
            () -> {
              assertThat(recorded.latest(TOPIC).get(ingressKey))
                  .isInstanceOfSatisfying(
                      HostnameResolution.class,
                      r -> {
                        assertThat(r.hostname()).isEqualTo("elb-1.example.test");
                        assertThat(r.server()).isEqualTo(dns.address().toString());
                        assertThat(r.status()).isEqualTo(ProbeStatus.OK);
                        assertThat(r.ipv4()).containsExactly("192.0.2.31");
                        assertThat(r.ipv6()).containsExactly("2001:db8::31");
                      });
              assertThat(recorded.latest(TOPIC).get(serviceKey))
                  .isInstanceOfSatisfying(
                      HostnameResolution.class,
                      r -> assertThat(r.ipv4()).containsExactly("192.0.2.32"));
              assertThat(resolver.state(ResolutionKey.parse(ingressKey))).isNotNull();
              assertThat(resolver.state(ResolutionKey.parse(serviceKey))).isNotNull();
            });

    topology.removeRoute("Ingress/default/shop");
    topology.removeService("Service/default/api");
    resolver.tick();

    assertThat(recorded.latest(TOPIC)).containsEntry(ingressKey, null);
    assertThat(recorded.latest(TOPIC)).containsEntry(serviceKey, null);
  }

  @Test
  void reportsAnUnusableResolverHonestly() {
    topology.put(
        new RouteState(
            "HTTPRoute",
            "gateway.networking.k8s.io/v1",
            "default",
            "v6",
            "uid",
            List.of("v6.example.com"),
            List.of(BackendRef.service("web")),
            Map.of(
                "directdns.meisterlala.dev/resolve-target-hostnames", "true",
                "directdns.meisterlala.dev/dns-server", "dns.local"),
            List.of()));

    resolver.tick();

    await()
        .untilAsserted(
            () ->
                assertThat(recorded.latest(TOPIC).get("dns.local:53|edge.example.test"))
                    .isInstanceOfSatisfying(
                        HostnameResolution.class,
                        r -> {
                          assertThat(r.status()).isEqualTo(ProbeStatus.ERROR);
                          assertThat(r.ipv4()).isEmpty();
                        }));
  }
}
