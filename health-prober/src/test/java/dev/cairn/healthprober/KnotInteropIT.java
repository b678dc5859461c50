package dev.cairn.healthprober;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.GslbStrategy;
import dev.cairn.healthprober.discovery.PeerDirectory;
import dev.cairn.healthprober.discovery.PeerDiscovery;
import dev.cairn.healthprober.dns.DnsClient;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.kafka.InMemoryTopology;
import dev.cairn.healthprober.kafka.Outbox;
import dev.cairn.healthprober.kafka.RecordingOutbox;
import dev.cairn.healthprober.peer.PeerSet;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.RecordType;
import dev.cairn.healthprober.schedule.ProbeMetrics;
import dev.cairn.healthprober.schedule.ProbeScheduler;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Discovery and probing against real Knot DNS servers (Debian {@code knot}), started here on
 * loopback with temporary configurations:
 *
 * <ul>
 *   <li>the edge, 127.0.0.1, serving the parent zone {@code cairn.test}: NS and glue (A and AAAA)
 *       for the peers of two delegated zones, {@code cloud.cairn.test} and {@code web.cairn.test};
 *   <li>peer {@code eu}, 127.0.0.2 and ::1, serving {@code cloud.cairn.test} (an answer, an
 *       NXDOMAIN name, a NODATA name, a name with 100 addresses) and an unloadable zone below it
 *       (SERVFAIL), but not {@code web.cairn.test} (REFUSED);
 *   <li>peer {@code us}, 127.0.0.3, serving both zones;
 *   <li>peer {@code down}, glue 127.0.0.9, where nothing listens (TIMEOUT);
 *   <li>peer {@code ap}, glue 127.0.0.1, the edge itself, which only refers (ERROR);
 *   <li>{@code xx}, this cluster, which is never probed.
 * </ul>
 *
 * Skipped with a message when knotd is missing, unless {@code -Dcairn.interop.required=true}.
 */
class KnotInteropIT {

  private static final List<Process> knots = new ArrayList<>();
  private static int port;
  private static DnsClient client;

  @TempDir static Path dir;

  @BeforeAll
  static void startKnot() throws Exception {
    String knotd = find("knotd");
    if (knotd == null) {
      if (Boolean.getBoolean("cairn.interop.required")) {
        fail("knotd is not installed but cairn.interop.required=true (apt-get install -y knot)");
      }
      Assumptions.assumeTrue(false, "knotd is not installed (apt-get install -y knot): skipped");
    }
    port = freePort();
    writeZone(
        "edge",
        "cairn.test",
        """
        @ SOA ns1 hostmaster 1 3600 900 604800 60
        @ NS ns1
        ns1 A 127.0.0.1
        cloud NS gslb-ns-eu-cloud.cairn.test.
        cloud NS gslb-ns-us-cloud.cairn.test.
        cloud NS gslb-ns-down-cloud.cairn.test.
        cloud NS gslb-ns-ap-cloud.cairn.test.
        cloud NS gslb-ns-xx-cloud.cairn.test.
        web NS gslb-ns-eu-web.cairn.test.
        web NS gslb-ns-us-web.cairn.test.
        gslb-ns-eu-cloud A 127.0.0.2
        gslb-ns-eu-cloud AAAA ::1
        gslb-ns-us-cloud A 127.0.0.3
        gslb-ns-down-cloud A 127.0.0.9
        gslb-ns-ap-cloud A 127.0.0.1
        gslb-ns-xx-cloud A 127.0.0.10
        gslb-ns-eu-web A 127.0.0.2
        gslb-ns-eu-web AAAA ::1
        gslb-ns-us-web A 127.0.0.3
        """);
    StringBuilder big = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      big.append("localtargets-big A 10.0.")
          .append(i / 250)
          .append('.')
          .append(i % 250 + 1)
          .append('\n');
    }
    writeZone(
        "eu",
        "cloud.cairn.test",
        """
        @ SOA ns1 hostmaster 1 3600 900 604800 15
        @ NS gslb-ns-eu-cloud.cairn.test.
        localtargets-app A 192.0.2.2
        localtargets-app A 192.0.2.1
        localtargets-app AAAA 2001:db8::1
        localtargets-empty TXT "healthy nowhere"
        """
            + big);
    writeZone(
        "us",
        "cloud.cairn.test",
        """
        @ SOA ns1 hostmaster 1 3600 900 604800 15
        @ NS gslb-ns-us-cloud.cairn.test.
        localtargets-app A 198.51.100.1
        """);
    writeZone(
        "us",
        "web.cairn.test",
        """
        @ SOA ns1 hostmaster 1 3600 900 604800 15
        @ NS gslb-ns-us-web.cairn.test.
        localtargets-app A 198.51.100.2
        """);
    start(knotd, "edge", List.of("127.0.0.1"), List.of("cairn.test"));
    start(
        knotd,
        "eu",
        List.of("127.0.0.2", "::1"),
        List.of("cloud.cairn.test", "broken.cloud.cairn.test"));
    start(knotd, "us", List.of("127.0.0.3"), List.of("cloud.cairn.test", "web.cairn.test"));
    client = new DnsClient(new DnsClient.Settings(2, 1232, 2));
    DnsLookup lookup = new DnsLookup(client, 64);
    for (String[] s :
        new String[][] {
          {"127.0.0.1", "cairn.test"},
          {"127.0.0.2", "cloud.cairn.test"},
          {"[::1]", "cloud.cairn.test"},
          {"127.0.0.3", "web.cairn.test"}
        }) {
      ServerAddress server = ServerAddress.require("knot", s[0] + ":" + port, 53);
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  lookup
                          .query(
                              client.encode(s[1], RecordType.SOA, false),
                              List.of(server),
                              0,
                              1,
                              Duration.ofMillis(200),
                              "",
                              null)
                          .join()
                          .result()
                          .status()
                      == ProbeStatus.OK);
    }
  }

  @AfterAll
  static void stopKnot() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    for (Process p : knots) {
      p.destroy();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private static String find(String binary) {
    List<String> dirs =
        new ArrayList<>(
            List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
    dirs.add("/usr/sbin");
    dirs.add("/sbin");
    for (String d : dirs) {
      Path p = Path.of(d, binary);
      if (!d.isEmpty() && Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  /** A port free for UDP and TCP on every loopback address the servers use. */
  private static int freePort() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int candidate = ThreadLocalRandom.current().nextInt(20_000, 60_000);
      if (free(candidate)) {
        return candidate;
      }
    }
    throw new IOException("no free port for the Knot servers");
  }

  private static boolean free(int candidate) {
    List<AutoCloseable> held = new ArrayList<>();
    try {
      for (String ip : List.of("127.0.0.1", "127.0.0.2", "127.0.0.3", "::1")) {
        InetAddress a = InetAddress.getByName(ip);
        held.add(new DatagramSocket(new InetSocketAddress(a, candidate)));
        held.add(new ServerSocket(candidate, 1, a));
      }
      return true;
    } catch (IOException e) {
      return false;
    } finally {
      for (AutoCloseable c : held) {
        try {
          c.close();
        } catch (Exception e) {
          // released
        }
      }
    }
  }

  private static void writeZone(String server, String zone, String body) throws IOException {
    Path zones = Files.createDirectories(dir.resolve(server).resolve("zones"));
    Files.writeString(zones.resolve(zone + ".zone"), "$ORIGIN " + zone + ".\n$TTL 30\n" + body);
  }

  private static void start(String knotd, String name, List<String> listen, List<String> zones)
      throws IOException {
    Path base = Files.createDirectories(dir.resolve(name));
    Files.createDirectories(base.resolve("run"));
    Files.createDirectories(base.resolve("db"));
    Files.createDirectories(base.resolve("zones"));
    StringBuilder conf = new StringBuilder();
    conf.append("server:\n  rundir: \"").append(base.resolve("run")).append("\"\n  listen: [ ");
    conf.append(String.join(", ", listen.stream().map(ip -> ip + "@" + port).toList()));
    conf.append(" ]\n  udp-workers: 1\n  tcp-workers: 1\n  background-workers: 1\n");
    conf.append("log:\n  - target: stderr\n    any: info\n");
    conf.append("database:\n  storage: \"").append(base.resolve("db")).append("\"\n");
    conf.append("template:\n  - id: default\n    storage: \"").append(base.resolve("zones"));
    conf.append("\"\n    file: \"%s.zone\"\n");
    conf.append("zone:\n");
    for (String z : zones) {
      conf.append("  - domain: ").append(z).append('\n');
    }
    Path file = base.resolve("knot.conf");
    Files.writeString(file, conf);
    Process p =
        new ProcessBuilder(knotd, "-c", file.toString())
            .redirectErrorStream(true)
            .redirectOutput(base.resolve("knotd.log").toFile())
            .start();
    knots.add(p);
  }

  private static GslbState gslb(String name, String... hosts) {
    List<GslbState.IngressRule> rules = new ArrayList<>();
    for (String h : hosts) {
      rules.add(new GslbState.IngressRule(h, List.of(BackendRef.service("app"))));
    }
    return new GslbState(
        "default",
        name,
        "uid",
        null,
        rules,
        new GslbStrategy("roundRobin", 30, null, Map.of(), null),
        null,
        Map.of(),
        List.of());
  }

  private static final List<DelegationZone> ZONES =
      List.of(
          new DelegationZone("cairn.test", "cloud.cairn.test"),
          new DelegationZone("cairn.test", "web.cairn.test"));

  private static PeerDirectory directory(List<String> geoTags) {
    PeerDiscovery discovery =
        new PeerDiscovery(
            new DnsLookup(client, 64),
            ZONES,
            "gslb-ns-",
            geoTags,
            List.of(ServerAddress.require("edge", "127.0.0.1:" + port, 53)),
            port,
            "xx",
            Duration.ofSeconds(2),
            2);
    return new PeerDirectory(List.of(), discovery, "xx", Clock.systemUTC());
  }

  private static ServerAddress at(String ip) {
    return ServerAddress.require("t", ip, port);
  }

  @Test
  void discoversThePeersFromTheConfiguredGeoTagsAndFromTheNsRrset() {
    PeerDirectory byTags = directory(List.of("eu", "us", "down", "ap", "xx"));
    byTags.refresh();
    PeerDirectory byNs = directory(List.of());
    byNs.refresh();

    PeerSet peers = byTags.current();
    assertThat(peers.geoTags()).containsExactly("ap", "down", "eu", "us");
    assertThat(peers.peers().get("eu").servers()).containsExactly(at("127.0.0.2"), at("[::1]"));
    assertThat(peers.peers().get("us").servers()).containsExactly(at("127.0.0.3"));
    assertThat(byNs.current()).isEqualTo(peers);
    assertThat(byTags.known()).isTrue();
  }

  @Test
  void probesEveryPeerAndReportsEachStatusHonestly() {
    PeerDirectory directory = directory(List.of("eu", "us", "down", "ap"));
    directory.refresh();
    InMemoryTopology topology = new InMemoryTopology();
    topology.put(
        gslb(
            "all",
            "app.cloud.cairn.test",
            "gone.cloud.cairn.test",
            "empty.cloud.cairn.test",
            "x.broken.cloud.cairn.test",
            "big.cloud.cairn.test",
            "app.web.cairn.test"));
    Outbox outbox = new Outbox();
    RecordingOutbox recorded = new RecordingOutbox(outbox);
    String topic = "cairn.health.peer-answers.v1";
    ProbeScheduler scheduler =
        new ProbeScheduler(
            new ProbeScheduler.Settings(
                Duration.ofHours(1),
                Duration.ofSeconds(2), // one attempt per question: room for a loaded CI machine
                1,
                Duration.ofHours(1),
                ZONES,
                Duration.ofSeconds(300),
                CircuitBreakerConfig.ofDefaults(),
                BulkheadConfig.custom()
                    .maxConcurrentCalls(20)
                    .maxWaitDuration(Duration.ZERO)
                    .build(),
                Duration.ZERO,
                Duration.ZERO),
            topology,
            directory,
            new DnsLookup(client, 64),
            outbox,
            topic,
            CircuitBreakerRegistry.ofDefaults(),
            BulkheadRegistry.ofDefaults(),
            new ProbeMetrics(new SimpleMeterRegistry()),
            Clock.systemUTC());
    try {
      scheduler.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> recorded.latest(topic).size() == 6 * 4);
      Map<String, Object> latest = recorded.latest(topic);

      PeerAnswer euApp = (PeerAnswer) latest.get("PeerAnswer/eu/app.cloud.cairn.test");
      assertThat(euApp.status()).isEqualTo(ProbeStatus.OK);
      assertThat(euApp.ipv4()).containsExactly("192.0.2.1", "192.0.2.2");
      assertThat(euApp.ipv6()).containsExactly("2001:db8::1");
      assertThat(euApp.ttlSeconds()).isEqualTo(30L);
      PeerAnswer usApp = (PeerAnswer) latest.get("PeerAnswer/us/app.cloud.cairn.test");
      assertThat(usApp.ipv4()).containsExactly("198.51.100.1");
      assertThat(usApp.server()).isEqualTo(at("127.0.0.3").toString());
      assertThat(status(latest, "us", "app.web.cairn.test")).isEqualTo(ProbeStatus.OK);

      assertThat(status(latest, "eu", "gone.cloud.cairn.test")).isEqualTo(ProbeStatus.NXDOMAIN);
      assertThat(status(latest, "eu", "empty.cloud.cairn.test")).isEqualTo(ProbeStatus.NODATA);
      assertThat(status(latest, "eu", "x.broken.cloud.cairn.test")).isEqualTo(ProbeStatus.SERVFAIL);
      assertThat(status(latest, "eu", "app.web.cairn.test")).isEqualTo(ProbeStatus.REFUSED);
      assertThat(status(latest, "down", "app.cloud.cairn.test")).isEqualTo(ProbeStatus.TIMEOUT);
      assertThat(status(latest, "ap", "app.cloud.cairn.test")).isEqualTo(ProbeStatus.ERROR);
      assertThat(latest.keySet()).noneMatch(k -> k.startsWith("PeerAnswer/xx/"));

      PeerAnswer big = (PeerAnswer) latest.get("PeerAnswer/eu/big.cloud.cairn.test");
      assertThat(big.status()).isEqualTo(ProbeStatus.OK);
      assertThat(big.ipv4()).hasSize(64);
      assertThat(client.truncated()).isPositive();
    } finally {
      scheduler.close();
    }
  }

  private static ProbeStatus status(Map<String, Object> latest, String geo, String host) {
    return ((PeerAnswer) latest.get("PeerAnswer/" + geo + "/" + host)).status();
  }
}
