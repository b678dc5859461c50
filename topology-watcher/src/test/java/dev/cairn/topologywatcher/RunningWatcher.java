package dev.cairn.topologywatcher;

import dev.cairn.topologywatcher.kafka.StatePublisher;
import dev.cairn.topologywatcher.lifecycle.WatcherStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;

/** A topology-watcher started the way the local stack starts it: builder plus properties. */
final class RunningWatcher implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final ConfigurableApplicationContext context;

  private RunningWatcher(ConfigurableApplicationContext context) {
    this.context = context;
  }

  /**
   * Starts a watcher against the mock cluster and the shared broker.
   *
   * @param extra further {@code key=value} properties
   */
  static RunningWatcher start(MockCluster cluster, String topicPrefix, String... extra) {
    List<String> properties = new ArrayList<>();
    properties.add("watcher.kubernetes.master-url=" + cluster.url());
    properties.add("spring.kafka.bootstrap-servers=" + SharedBroker.bootstrapServers());
    properties.add("server.port=0");
    properties.add("watcher.topics.prefix=" + topicPrefix);
    properties.add("watcher.crd-poll-interval=200ms");
    properties.add("watcher.leader-election.lease-duration=3s");
    properties.add("watcher.leader-election.renew-deadline=2s");
    properties.add("watcher.leader-election.retry-period=200ms");
    properties.addAll(List.of(extra));
    return new RunningWatcher(
        TopologyWatcherApplication.builder().properties(properties.toArray(String[]::new)).run());
  }

  WatcherStatus status() {
    return context.getBean(WatcherStatus.class);
  }

  boolean publishing() {
    return context.getBean(StatePublisher.class).active();
  }

  /** GET on an actuator path; returns the status code and body. */
  HttpResponse<String> get(String path) {
    String port = context.getEnvironment().getProperty("local.server.port");
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  int readiness() {
    return get("/actuator/health/readiness").statusCode();
  }

  @Override
  public void close() {
    context.close();
  }
}
