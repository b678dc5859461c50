package dev.cairn.dnsresponder.health;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.GeoLocator;
import dev.cairn.dnsresponder.answer.QueryAnswerer;
import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.answer.TargetSelector;
import dev.cairn.dnsresponder.answer.WeightedAnswer;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import dev.cairn.dnsresponder.server.DnsServer;
import dev.cairn.dnsresponder.server.QueryProcessor;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * A listener thread that an unexpected error stops is reported, so liveness restarts the process
 * instead of leaving it up and silent; a query's RuntimeException does not stop it.
 */
class ListenerHealthIndicatorIT {

  private final AtomicBoolean poisoned = new AtomicBoolean();
  private final AtomicBoolean failing = new AtomicBoolean();

  private DnsServer server() {
    AnswerView view =
        AnswerView.serving(
            ZoneFixtures.snapshot(endpoint("a", 0, "app.cloud.example.com", "A", 30, "192.0.2.1")),
            ServingState.SYNCED);
    QueryAnswerer answerer =
        new QueryAnswerer(
            new TargetSelector(
                new SplittableRandom(1), GeoLocator.NONE, List.of(), WeightedAnswer.ONE, 32),
            1232,
            32);
    DnsServer server =
        new DnsServer(
            new DnsServer.Settings(
                InetAddress.getLoopbackAddress(), 0, 1, Duration.ofSeconds(5), 4),
            new QueryProcessor(
                () -> {
                  if (poisoned.get()) {
                    throw new AssertionError("poisoned for the test");
                  }
                  if (failing.get()) {
                    throw new IllegalStateException("a failing query for the test");
                  }
                  return view;
                },
                answerer,
                null,
                new ResponderMetrics(new SimpleMeterRegistry())));
    server.start();
    return server;
  }

  private static Message ask(DnsServer server) throws IOException {
    SimpleResolver resolver = new SimpleResolver(InetAddress.getLoopbackAddress());
    resolver.setPort(server.udpPort());
    resolver.setTimeout(Duration.ofMillis(500));
    return resolver.send(
        Message.newQuery(
            Record.newRecord(
                Name.fromConstantString("app.cloud.example.com."), Type.A, DClass.IN)));
  }

  private static void askUnanswered(DnsServer server) {
    try {
      ask(server);
    } catch (IOException timeout) {
      // no answer: expected
    }
  }

  @Test
  void aStoppedListenerTurnsItDownAndAFailingQueryDoesNot() throws Exception {
    DnsServer server = server();
    ListenerHealthIndicator indicator = new ListenerHealthIndicator(server);
    try {
      assertThat(ask(server).getRcode()).isEqualTo(Rcode.NOERROR);
      failing.set(true);
      askUnanswered(server);
      failing.set(false);
      assertThat(ask(server).getRcode()).as("the thread went on").isEqualTo(Rcode.NOERROR);
      Health up = indicator.health();
      assertThat(up.getStatus()).isEqualTo(Status.UP);
      assertThat(up.getDetails()).containsEntry("listeners", 2);

      poisoned.set(true);
      askUnanswered(server);
      await().atMost(Duration.ofSeconds(5)).until(() -> !server.stoppedListeners().isEmpty());

      Health down = indicator.health();
      assertThat(down.getStatus()).isEqualTo(Status.DOWN);
      @SuppressWarnings("unchecked")
      Map<String, String> stopped = (Map<String, String>) down.getDetails().get("stopped");
      assertThat(stopped).containsOnlyKeys("dns-udp-0");
      assertThat(stopped.get("dns-udp-0")).contains("poisoned for the test");
    } finally {
      server.close();
    }
    assertThat(server.stoppedListeners()).containsOnlyKeys("dns-udp-0");
  }
}
