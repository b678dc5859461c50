package dev.cairn.recordwriter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One record-writer started the way the local stack starts it: {@code
 * RecordWriterApplication.builder().properties(...)} against the mock API and the embedded broker.
 */
final class WriterRun implements AutoCloseable {

  private final ConfigurableApplicationContext context;
  private final HttpClient http = HttpClient.newHttpClient();

  private WriterRun(ConfigurableApplicationContext context) {
    this.context = context;
  }

  static WriterRun start(MockKubernetes api, String prefix, String... extra) {
    List<String> props = new ArrayList<>();
    props.add("writer.kubernetes.master-url=" + api.url());
    props.add("spring.kafka.bootstrap-servers=" + EmbeddedBroker.bootstrapServers());
    props.add("server.port=0");
    props.add("writer.topics.prefix=" + prefix);
    props.add("writer.leader-election.retry-period=500ms");
    props.add("writer.leader-election.renew-deadline=3s");
    props.add("writer.leader-election.lease-duration=4s");
    props.addAll(List.of(extra));
    return new WriterRun(
        RecordWriterApplication.builder().properties(props.toArray(String[]::new)).run());
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  /** The writes this instance sent, by the {@code cairn.writer.writes} counters. */
  double writes() {
    return context.getBean(MeterRegistry.class).find("cairn.writer.writes").counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  /** A counter's total over all its tags, 0 when it was never incremented. */
  double counter(String name) {
    return context.getBean(MeterRegistry.class).find(name).counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  /** A gauge's value summed over all its tags, 0 when it is not registered. */
  double gauge(String name) {
    return context.getBean(MeterRegistry.class).find(name).gauges().stream()
        .mapToDouble(Gauge::value)
        .sum();
  }

  /**
   * True when the writer has no write queued or in flight: every write planned so far has its
   * result.
   */
  boolean writesSettled() {
    return gauge("cairn.writer.writes.in.flight") == 0 && gauge("cairn.writer.write.queue") == 0;
  }

  /** The mean of a timer over all its tags, in milliseconds. */
  double timerMeanMillis(String name) {
    List<Timer> timers = List.copyOf(context.getBean(MeterRegistry.class).find(name).timers());
    double total = timers.stream().mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS)).sum();
    long count = timers.stream().mapToLong(Timer::count).sum();
    return count == 0 ? 0 : total / count;
  }

  /** The samples of a timer over all its tags. */
  long timerCount(String name) {
    return context.getBean(MeterRegistry.class).find(name).timers().stream()
        .mapToLong(Timer::count)
        .sum();
  }

  /** The largest recent sample of a timer over all its tags, in milliseconds. */
  double timerMaxMillis(String name) {
    return context.getBean(MeterRegistry.class).find(name).timers().stream()
        .mapToDouble(t -> t.max(TimeUnit.MILLISECONDS))
        .max()
        .orElse(0);
  }

  /** GETs a path of the writer's HTTP server. */
  HttpResponse<String> get(String path) {
    int port = Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  boolean isRunning() {
    return context.isActive();
  }

  @Override
  public void close() {
    context.close();
  }
}
