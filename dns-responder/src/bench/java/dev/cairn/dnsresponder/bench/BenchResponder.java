package dev.cairn.dnsresponder.bench;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.GeoLocator;
import dev.cairn.dnsresponder.answer.QueryAnswerer;
import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.answer.TargetSelector;
import dev.cairn.dnsresponder.answer.WeightedAnswer;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import dev.cairn.dnsresponder.server.DnsServer;
import dev.cairn.dnsresponder.server.QueryProcessor;
import dev.cairn.dnsresponder.zone.BuildResult;
import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.SnapshotBuilder;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import dev.cairn.dnsresponder.zone.Zones;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The responder's DNS path (listener, answer logic, metrics) serving the same zone as the Knot
 * benchmark: {@code localtargets-app<i>.cloud.example.com} with two A records each. Not a test:
 * started by {@code run-bench.sh}. Usage: {@code BenchResponder <port> <names> <workers>}.
 */
public final class BenchResponder {

  private BenchResponder() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int names = Integer.parseInt(args[1]);
    int workers = Integer.parseInt(args[2]);
    ZoneSpec zone =
        new ZoneSpec(
            "cloud.example.com",
            List.of(new ZoneSpec.NameServer("ns1.cloud.example.com", List.of("127.0.0.1"))),
            "hostmaster.cloud.example.com",
            3600,
            600,
            86400,
            30,
            3600);
    List<EndpointInput> inputs = new ArrayList<>(names);
    for (int i = 0; i < names; i++) {
      inputs.add(
          new EndpointInput(
              "bench/app" + i,
              null,
              0,
              "localtargets-app" + i + ".cloud.example.com",
              "A",
              30,
              List.of("192.0.2." + (i % 254 + 1), "198.51.100." + ((i / 254) % 254 + 1)),
              Map.of()));
    }
    BuildResult result =
        SnapshotBuilder.build(
            new Zones(List.of(zone)), inputs, new SnapshotBuilder.Limits(60, 1_000_000), Instant.now());
    AnswerView view =
        AnswerView.serving(((BuildResult.Built) result).snapshot(), ServingState.SYNCED);
    // Answering allocates nothing, so the garbage of this build would sit in the young generation
    // until some later trickle fills it, and that first young collection, which copies the whole
    // fresh snapshot (tens of ms on one core), could land in a measured window. Collect it now, as
    // a long-running responder's first collections would long before.
    System.gc();
    QueryAnswerer answerer =
        new QueryAnswerer(
            new TargetSelector(
                () -> ThreadLocalRandom.current().nextLong(),
                GeoLocator.NONE,
                List.of("datacenter"),
                WeightedAnswer.ONE,
                32),
            1232,
            32);
    DnsServer server =
        new DnsServer(
            new DnsServer.Settings(
                InetAddress.getByName("127.0.0.1"), port, workers, Duration.ofSeconds(10), 128),
            new QueryProcessor(
                () -> view,
                answerer,
                null,
                new ResponderMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))));
    server.start();
    System.out.println("READY " + server.udpPort() + " names=" + view.snapshot().nameCount());
    Thread.currentThread().join();
  }
}
