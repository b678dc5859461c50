package dev.cairn.localstack;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import dev.cairn.healthprober.HealthProberApplication;
import dev.cairn.recordwriter.RecordWriterApplication;
import dev.cairn.strategyengine.StrategyEngineApplication;
import dev.cairn.topologywatcher.TopologyWatcherApplication;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Cairn on one machine with no cluster and no Docker: a real Kafka broker (KRaft, in process), a
 * mock Kubernetes API server in CRUD mode, and the four services, each in its own Spring
 * application context, wired to both. Used by {@link LocalStackApplication} and by the system
 * tests.
 */
public final class LocalStack implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);

  /**
   * How to start the stack.
   *
   * @param apiPort the mock API port (0: a free port)
   * @param bootstrapServers an external broker to use instead of the embedded one, or {@code null}
   * @param seedSample whether to create the sample topology
   * @param gracePeriod the record-writer's stale-endpoint grace period
   * @param onDnsEndpoint told about every DNSEndpoint change (name, endpoints; {@code null}
   *     endpoints on delete), may be {@code null}
   */
  public record Options(
      int apiPort,
      String bootstrapServers,
      boolean seedSample,
      Duration gracePeriod,
      Consumer<String> onDnsEndpoint) {

    /** Random ports, embedded broker, sample topology, the default 5-minute grace period. */
    public static Options defaults() {
      return new Options(0, null, true, Duration.ofMinutes(5), null);
    }

    public Options withGracePeriod(Duration grace) {
      return new Options(apiPort, bootstrapServers, seedSample, grace, onDnsEndpoint);
    }

    public Options withBootstrapServers(String servers) {
      return new Options(apiPort, servers, seedSample, gracePeriod, onDnsEndpoint);
    }

    public Options withApiPort(int api) {
      return new Options(api, bootstrapServers, seedSample, gracePeriod, onDnsEndpoint);
    }

    public Options withSample(boolean seed) {
      return new Options(apiPort, bootstrapServers, seed, gracePeriod, onDnsEndpoint);
    }

    public Options withDnsEndpointListener(Consumer<String> listener) {
      return new Options(apiPort, bootstrapServers, seedSample, gracePeriod, listener);
    }
  }

  private final EmbeddedKafkaKraftBroker broker;
  private final String bootstrapServers;
  private final MockKubernetesApi api;
  private final Path stateDir;
  private final Map<String, ConfigurableApplicationContext> services = new LinkedHashMap<>();
  private SharedIndexInformer<GenericKubernetesResource> printer;

  private LocalStack(
      EmbeddedKafkaKraftBroker broker, String bootstrapServers, MockKubernetesApi api, Path dir) {
    this.broker = broker;
    this.bootstrapServers = bootstrapServers;
    this.api = api;
    this.stateDir = dir;
  }

  /** Starts everything; on failure, whatever was started is stopped again. */
  public static LocalStack start(Options options) {
    // One logging configuration (logback.xml of this module) for every service in the JVM: a
    // service context must not re-initialise logging for the others.
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    // Route java.util.logging (Tomcat, the mock web server) through the same configuration.
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
    EmbeddedKafkaKraftBroker broker = null;
    String servers = options.bootstrapServers();
    if (servers == null) {
      broker = new EmbeddedKafkaKraftBroker(1, 1);
      broker.brokerProperty("auto.create.topics.enable", "false");
      broker.brokerProperty("log.cleaner.min.cleanable.ratio", "0.1");
      broker.afterPropertiesSet();
      servers = broker.getBrokersAsString();
    }
    MockKubernetesApi api = null;
    LocalStack stack = null;
    try {
      createTopics(servers);
      api = MockKubernetesApi.start(options.apiPort());
      stack = new LocalStack(broker, servers, api, Files.createTempDirectory("cairn-local-stack"));
      log.atInfo()
          .addKeyValue("kafka", servers)
          .addKeyValue("kubernetesApi", api.url())
          .log("broker and mock Kubernetes API are listening; starting the services");
      stack.watchDnsEndpoints(options.onDnsEndpoint());
      if (options.seedSample()) {
        SampleTopology.seed(api.client());
      }
      stack.startServices(options);
      return stack;
    } catch (IOException e) {
      closeQuietly(stack, api, broker);
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      closeQuietly(stack, api, broker);
      throw e;
    }
  }

  /**
   * Creates every contract topic up front, as an operator would with the chart: a service that only
   * reads a topic (or a person with kcat) then never waits for its producer to start.
   */
  private static void createTopics(String servers) {
    TopicSettings settings = TopicSettings.defaults();
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
      List<NewTopic> topics = Topics.ALL.stream().map(settings::newTopic).toList();
      for (Map.Entry<String, KafkaFuture<Void>> e :
          admin.createTopics(topics).values().entrySet()) {
        try {
          e.getValue().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException ex) {
          if (!(ex.getCause() instanceof TopicExistsException)) {
            throw new IllegalStateException("cannot create topic " + e.getKey(), ex.getCause());
          }
        } catch (TimeoutException ex) {
          throw new IllegalStateException("timed out creating topic " + e.getKey(), ex);
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted creating topic " + e.getKey(), ex);
        }
      }
    }
  }

  private static void closeQuietly(
      LocalStack stack, MockKubernetesApi api, EmbeddedKafkaKraftBroker broker) {
    if (stack != null) {
      stack.close();
      return;
    }
    if (api != null) {
      api.close();
    }
    if (broker != null) {
      broker.destroy();
    }
  }

  private void startServices(Options options) {
    String k8s = api.url();
    Map<String, Supplier<SpringApplicationBuilder>> builders = new LinkedHashMap<>();
    builders.put("topology-watcher", TopologyWatcherApplication::builder);
    builders.put("strategy-engine", StrategyEngineApplication::builder);
    builders.put("record-writer", RecordWriterApplication::builder);
    builders.put("health-prober", HealthProberApplication::builder);
    Map<String, List<String>> properties = new LinkedHashMap<>();
    properties.put(
        "topology-watcher",
        List.of(
            "watcher.kubernetes.master-url=" + k8s,
            "watcher.leader-election.namespace=default",
            "watcher.cluster-name=local"));
    properties.put(
        "strategy-engine",
        List.of(
            "engine.application-id=cairn-strategy-engine-local",
            "engine.state-dir=" + stateDir.resolve("streams")));
    properties.put(
        "record-writer",
        List.of(
            "writer.kubernetes.master-url=" + k8s,
            "writer.leader-election.namespace=default",
            "writer.grace-period=" + options.gracePeriod().toMillis() + "ms"));
    properties.put("health-prober", List.of("prober.geo-tag=local"));
    // The services are independent of each other (they meet only through Kafka), so they start
    // in parallel: on 2 cores this roughly halves the time to a running stack.
    ExecutorService starter = Executors.newFixedThreadPool(builders.size());
    Map<String, Future<ConfigurableApplicationContext>> starting = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, Supplier<SpringApplicationBuilder>> e : builders.entrySet()) {
        String name = e.getKey();
        List<String> props = new ArrayList<>(properties.get(name));
        props.add("spring.kafka.bootstrap-servers=" + bootstrapServers);
        props.add("server.port=0");
        props.add("spring.main.banner-mode=off");
        props.add("spring.main.log-startup-info=false");
        starting.put(
            name,
            starter.submit(
                () -> {
                  long started = System.nanoTime();
                  ConfigurableApplicationContext context =
                      e.getValue().get().properties(props.toArray(String[]::new)).run();
                  log.atInfo()
                      .addKeyValue("service", name)
                      .addKeyValue(
                          "port", context.getEnvironment().getProperty("local.server.port"))
                      .addKeyValue("ms", (System.nanoTime() - started) / 1_000_000)
                      .log("service started");
                  return context;
                }));
      }
      RuntimeException failure = null;
      for (Map.Entry<String, Future<ConfigurableApplicationContext>> e : starting.entrySet()) {
        try {
          services.put(e.getKey(), e.getValue().get());
        } catch (ExecutionException ex) {
          RuntimeException cause =
              new IllegalStateException(
                  "service " + e.getKey() + " failed to start: " + ex.getCause(), ex.getCause());
          if (failure == null) {
            failure = cause;
          } else {
            failure.addSuppressed(cause);
          }
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while starting " + e.getKey(), ex);
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      starter.shutdown();
    }
  }

  private void watchDnsEndpoints(Consumer<String> listener) {
    if (listener == null) {
      return;
    }
    printer =
        DnsEndpoints.of(api.client())
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource r) {
                    listener.accept("created " + describe(r));
                  }

                  @Override
                  public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource r) {
                    if (!DnsEndpoints.describeEndpoints(old)
                        .equals(DnsEndpoints.describeEndpoints(r))) {
                      listener.accept("updated " + describe(r));
                    }
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource r, boolean unknownState) {
                    listener.accept(
                        "deleted DNSEndpoint "
                            + r.getMetadata().getNamespace()
                            + "/"
                            + r.getMetadata().getName());
                  }
                });
  }

  private static String describe(GenericKubernetesResource r) {
    return "DNSEndpoint "
        + r.getMetadata().getNamespace()
        + "/"
        + r.getMetadata().getName()
        + ": "
        + String.join("; ", DnsEndpoints.describeEndpoints(r));
  }

  /** The broker's bootstrap servers, e.g. {@code localhost:29092}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The mock API server URL. */
  public String apiUrl() {
    return api.url();
  }

  /** A client of the mock API (owned by the stack). */
  public KubernetesClient client() {
    return api.client();
  }

  /** The number of requests the mock API server has received. */
  public int apiRequestCount() {
    return api.requestCount();
  }

  /** The running service contexts by service name. */
  public Map<String, ConfigurableApplicationContext> services() {
    return Map.copyOf(services);
  }

  /** Stops one service (for restart tests). */
  public void stopService(String name) {
    ConfigurableApplicationContext c = services.remove(name);
    if (c != null) {
      c.close();
    }
  }

  @Override
  public void close() {
    List<String> names = new ArrayList<>(services.keySet());
    java.util.Collections.reverse(names);
    for (String name : names) {
      try {
        services.remove(name).close();
      } catch (RuntimeException e) {
        log.atWarn().addKeyValue("service", name).setCause(e).log("service did not stop cleanly");
      }
    }
    if (printer != null) {
      printer.close();
    }
    api.close();
    if (broker != null) {
      broker.destroy();
    }
  }
}
