package dev.cairn.healthprober.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.TestDnsServer;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.PeerSet;
import dev.cairn.healthprober.peer.ServerAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PeerDirectoryIT {

  private static final DelegationZone ZONE =
      new DelegationZone("example.test", "cloud.example.test");

  private TestDnsServer edge;
  private DnsClient client;

  @BeforeEach
  void start() throws Exception {
    edge = TestDnsServer.start("127.0.0.1", "example.test");
    client = new DnsClient(new DnsClient.Settings(2, 1232, 1));
    edge.answer("gslb-ns-eu-cloud.example.test", "192.0.2.11", "192.0.2.10", "2001:db8::10");
    edge.answer("gslb-ns-us-cloud.example.test", "198.51.100.10");
    edge.answer("gslb-ns-ap-cloud.example.test", "203.0.113.10");
  }

  @AfterEach
  void stop() {
    client.close();
    edge.close();
  }

  private PeerDirectory directory(List<String> geoTags, List<Peer> staticPeers) {
    PeerDiscovery discovery =
        new PeerDiscovery(
            new DnsLookup(client, 64),
            List.of(ZONE),
            "gslb-ns-",
            geoTags,
            List.of(edge.address()),
            5353,
            "ap",
            Duration.ofMillis(300),
            1);
    return new PeerDirectory(staticPeers, discovery, "ap", Clock.systemUTC());
  }

  static ServerAddress at(String ip) {
    return ServerAddress.require("t", ip, 5353);
  }

  @Test
  void findsTheConfiguredGeoTagsWithEveryGlueAddressButNotItself() {
    PeerDirectory d = directory(List.of("eu", "us", "ap"), List.of());
    List<PeerSet> seen = new ArrayList<>();
    d.addListener(seen::add);

    assertThat(d.known()).isFalse();
    d.refresh();

    assertThat(d.known()).isTrue();
    assertThat(d.current().geoTags()).containsExactly("eu", "us");
    assertThat(d.current().peers().get("eu").servers())
        .containsExactly(at("192.0.2.10"), at("192.0.2.11"), at("[2001:db8::10]"));
    assertThat(d.current().peers().get("us").servers()).containsExactly(at("198.51.100.10"));
    assertThat(seen).hasSize(1);
    assertThat(edge.queries("gslb-ns-ap-cloud.example.test")).isZero();
  }

  @Test
  void readsTheNsRrsetWhenNoGeoTagsAreConfigured() {
    edge.ns(
        "cloud.example.test",
        "gslb-ns-eu-cloud.example.test",
        "gslb-ns-us-cloud.example.test",
        "gslb-ns-ap-cloud.example.test",
        "ns1.elsewhere.test");
    PeerDirectory d = directory(List.of(), List.of());

    d.refresh();

    assertThat(d.current().geoTags()).containsExactly("eu", "us");
    assertThat(d.status().problems()).anyMatch(p -> p.contains("ns1.elsewhere.test"));
  }

  @Test
  void aPeerWhoseGlueIsGoneIsDroppedButAFailedLookupKeepsIt() {
    PeerDirectory d = directory(List.of("eu", "us"), List.of());
    d.refresh();

    edge.mode("gslb-ns-us-cloud.example.test", TestDnsServer.Mode.NXDOMAIN);
    edge.mode("gslb-ns-eu-cloud.example.test", TestDnsServer.Mode.DROP);
    d.refresh();

    assertThat(d.current().geoTags()).containsExactly("eu");
    assertThat(d.current().peers().get("eu").servers()).hasSize(3);
    assertThat(d.status().problems())
        .anyMatch(p -> p.startsWith("gslb-ns-eu-cloud.example.test: TIMEOUT"));
  }

  @Test
  void keepsTheLastGoodSetWhenNoEdgeServerAnswers() {
    PeerDirectory d = directory(List.of("eu", "us"), List.of());
    d.refresh();
    PeerSet good = d.current();

    edge.blackHole(true);
    d.refresh();

    assertThat(d.current()).isEqualTo(good);
    assertThat(d.status().lastFailure()).isNotNull();
    assertThat(d.status().lastSuccess()).isBefore(d.status().lastFailure().plusNanos(1));
    assertThat(d.known()).isTrue();
  }

  @Test
  void aFirstRefreshThatFailsLeavesThePeersUnknownButProbesTheStaticOnes() {
    edge.blackHole(true);
    Peer fixed = new Peer("eu", List.of(at("192.0.2.99")));
    PeerDirectory d = directory(List.of("eu", "us"), List.of(fixed));

    d.refresh();

    assertThat(d.known()).isFalse();
    assertThat(d.current().peers()).containsOnlyKeys("eu");
  }

  @Test
  void staysUnknownUntilEveryLookupWasAnsweredOnce() {
    PeerDirectory d = directory(List.of("eu", "us"), List.of());
    edge.mode("gslb-ns-us-cloud.example.test", TestDnsServer.Mode.DROP);

    d.refresh();
    assertThat(d.current().geoTags()).containsExactly("eu");
    assertThat(d.known()).isFalse();

    edge.answer("gslb-ns-us-cloud.example.test", "198.51.100.10");
    d.refresh();
    assertThat(d.current().geoTags()).containsExactly("eu", "us");
    assertThat(d.known()).isTrue();

    edge.mode("gslb-ns-us-cloud.example.test", TestDnsServer.Mode.DROP);
    d.refresh();
    assertThat(d.current().geoTags()).containsExactly("eu", "us");
    assertThat(d.known()).isTrue();
  }

  @Test
  void mergesStaticAndDiscoveredServersOfOnePeer() {
    Peer fixed = new Peer("eu", List.of(at("192.0.2.99")));
    PeerDirectory d = directory(List.of("eu"), List.of(fixed));

    d.refresh();

    assertThat(d.current().peers().get("eu").servers()).hasSize(4).contains(at("192.0.2.99"));
  }
}
