package dev.cairn.dnsresponder.server;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.labelled;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.GeoLocator;
import dev.cairn.dnsresponder.answer.QueryAnswerer;
import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.answer.TargetSelector;
import dev.cairn.dnsresponder.answer.WeightedAnswer;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A real {@link DnsServer} on a free loopback port, serving a fixed snapshot of {@code
 * cloud.example.com}: {@code app} (2 A + TXT), {@code v6} (AAAA), {@code www} (CNAME to app),
 * {@code big} (30 A, more than 512 octets), {@code deep.app2} (so {@code app2} is an empty
 * non-terminal), {@code geo} (geoip over two /28s) and {@code weighted} (80/20).
 */
final class RunningResponder implements AutoCloseable {

  final DnsServer server;
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  RunningResponder(GeoLocator geo, ResponseRateLimiter limiter) {
    List<String> big = new ArrayList<>();
    for (int i = 1; i <= 30; i++) {
      big.add("192.0.2." + (100 + i));
    }
    AnswerView view =
        AnswerView.serving(
            ZoneFixtures.snapshot(
                endpoint("a", 0, "app.cloud.example.com", "A", 120, "192.0.2.1", "192.0.2.2"),
                endpoint("a", 1, "app.cloud.example.com", "TXT", 0, "owner=a"),
                endpoint("a", 2, "v6.cloud.example.com", "AAAA", 0, "2001:db8::1"),
                endpoint("a", 3, "www.cloud.example.com", "CNAME", 0, "app.cloud.example.com"),
                endpoint("a", 4, "big.cloud.example.com", "A", 0, big.toArray(String[]::new)),
                endpoint("a", 5, "deep.app2.cloud.example.com", "A", 0, "192.0.2.3"),
                labelled(
                    "g",
                    "geo.cloud.example.com",
                    "A",
                    Map.of("strategy", "geoip"),
                    "192.0.2.5",
                    "192.0.2.20"),
                labelled(
                    "w",
                    "weighted.cloud.example.com",
                    "A",
                    Map.of("weight-eu-0-80", "192.0.2.1", "weight-us-0-20", "192.0.2.2"),
                    "192.0.2.1",
                    "192.0.2.2")),
            ServingState.SYNCED);
    QueryAnswerer answerer =
        new QueryAnswerer(
            new TargetSelector(
                new SplittableRandom(3), geo, List.of("datacenter"), WeightedAnswer.ONE, 32),
            1232,
            32);
    server =
        new DnsServer(
            new DnsServer.Settings(
                InetAddress.getLoopbackAddress(), 0, 2, Duration.ofSeconds(5), 16),
            new QueryProcessor(() -> view, answerer, limiter, new ResponderMetrics(registry)));
    server.start();
  }

  int port() {
    return server.udpPort();
  }

  @Override
  public void close() {
    server.close();
  }
}
