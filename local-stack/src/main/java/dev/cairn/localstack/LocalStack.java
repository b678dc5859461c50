package dev.cairn.localstack;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Cairn on one machine with no cluster and no Docker: one real Kafka broker (KRaft, in process) and
 * two simulated clusters, {@code eu} and {@code us} by default, each with its own mock Kubernetes
 * API server in CRUD mode, its own five services (each its own Spring application context), its own
 * topics (prefix {@code <cluster>.}) and its own dns-responder. The clusters' probers find each
 * other through a static peer list pointing at {@link DnsLink}s in front of the responders, which a
 * scenario can cut. Used by {@link LocalStackApplication} and by the system tests.
 */
public final class LocalStack implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);

  /**
   * How to start the stack.
   *
   * @param clusters the cluster names (also their geo tags); the first is the failover primary
   * @param apiPort the first cluster's mock API port, the next cluster's is one more (0: free
   *     ports)
   * @param dnsPort the first cluster's responder port, the next cluster's is one more (0: free
   *     ports)
   * @param bootstrapServers an external broker to use instead of the embedded one, or {@code null}
   * @param seedSample whether to create the sample topology
   * @param gracePeriod the record-writers' stale-endpoint grace period
   * @param probeInterval the probers' interval
   * @param onDnsEndpoint told about every DNSEndpoint change in every cluster ({@code <cluster>:
   *     created|updated|deleted ...}), may be {@code null}
   */
  public record Options(
      List<String> clusters,
      int apiPort,
      int dnsPort,
      String bootstrapServers,
      boolean seedSample,
      Duration gracePeriod,
      Duration probeInterval,
      Consumer<String> onDnsEndpoint) {

    public Options {
      clusters = List.copyOf(clusters);
      if (clusters.isEmpty()) {
        throw new IllegalArgumentException("at least one cluster is needed");
      }
      for (String c : clusters) {
        if (!c.matches("[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?")) {
          throw new IllegalArgumentException(
              "cluster name '" + c + "' must be a lower-case DNS label of at most 32 characters");
        }
      }
      if (clusters.stream().distinct().count() != clusters.size()) {
        throw new IllegalArgumentException("cluster names must differ: " + clusters);
      }
    }

    /**
     * Clusters {@code eu} and {@code us}, free ports, embedded broker, sample topology, the default
     * 5-minute grace period, a 2-second probe interval.
     */
    public static Options defaults() {
      return new Options(
          List.of("eu", "us"),
          0,
          0,
          null,
          true,
          Duration.ofMinutes(5),
          Duration.ofSeconds(2),
          null);
    }

    public Options withClusters(List<String> names) {
      return new Options(
          names,
          apiPort,
          dnsPort,
          bootstrapServers,
          seedSample,
          gracePeriod,
          probeInterval,
          onDnsEndpoint);
    }

    public Options withGracePeriod(Duration grace) {
      return new Options(
          clusters,
          apiPort,
          dnsPort,
          bootstrapServers,
          seedSample,
          grace,
          probeInterval,
          onDnsEndpoint);
    }

    public Options withProbeInterval(Duration interval) {
      return new Options(
          clusters,
          apiPort,
          dnsPort,
          bootstrapServers,
          seedSample,
          gracePeriod,
          interval,
          onDnsEndpoint);
    }

    public Options withBootstrapServers(String servers) {
      return new Options(
          clusters,
          apiPort,
          dnsPort,
          servers,
          seedSample,
          gracePeriod,
          probeInterval,
          onDnsEndpoint);
    }

    public Options withApiPort(int api) {
      return new Options(
          clusters,
          api,
          dnsPort,
          bootstrapServers,
          seedSample,
          gracePeriod,
          probeInterval,
          onDnsEndpoint);
    }

    public Options withDnsPort(int dns) {
      return new Options(
          clusters,
          apiPort,
          dns,
          bootstrapServers,
          seedSample,
          gracePeriod,
          probeInterval,
          onDnsEndpoint);
    }

    public Options withSample(boolean seed) {
      return new Options(
          clusters,
          apiPort,
          dnsPort,
          bootstrapServers,
          seed,
          gracePeriod,
          probeInterval,
          onDnsEndpoint);
    }

    public Options withDnsEndpointListener(Consumer<String> listener) {
      return new Options(
          clusters,
          apiPort,
          dnsPort,
          bootstrapServers,
          seedSample,
          gracePeriod,
          probeInterval,
          listener);
    }
  }

  private final EmbeddedKafkaKraftBroker broker;
  private final String bootstrapServers;
  private final Path stateDir;
  private final Map<String, Cluster> clusters = new LinkedHashMap<>();
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final List<SharedIndexInformer<GenericKubernetesResource>> printers = new ArrayList<>();

  private LocalStack(EmbeddedKafkaKraftBroker broker, String bootstrapServers, Path dir) {
    this.broker = broker;
    this.bootstrapServers = bootstrapServers;
    this.stateDir = dir;
  }

  /** Starts everything; on failure, whatever was started is stopped again. */
  public static LocalStack start(Options options) {
    return start(options, null);
  }

  /**
   * Starts everything as {@link #start(Options)} does, and hands each cluster to {@code
   * beforeServices} once its mock API is up (and the sample seeded, if asked for) but before any
   * service starts, so a benchmark can create a large topology that the services then read with
   * their initial lists.
   *
   * @param beforeServices called once per cluster, in order; may be {@code null}
   */
  public static LocalStack start(Options options, Consumer<Cluster> beforeServices) {
    // One logging configuration (logback.xml of this module) for every service in the JVM: a
    // service context must not re-initialise logging for the others.
    System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
    // The mock APIs need no credentials, and a fabric8 8.0.0 client without any re-runs its whole
    // auto-configuration (environment, system properties, kubeconfig files) on every request once
    // it is a minute old: its token-refresh interceptor finds no token and so never records a
    // refresh. A token nobody checks stops that; it was the record-writer's costliest step in the
    // 10k failover (JFR, 23:20). The same applies to a service pointed at `kubectl proxy`; see
    // docs/operations.md.
    if (System.getProperty(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY) == null) {
      System.setProperty(Config.KUBERNETES_OAUTH_TOKEN_SYSTEM_PROPERTY, "cairn-local-stack");
    }
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
      // Kafka's storage formatter prints to standard output: into the log with it.
      EmbeddedKafkaKraftBroker starting = broker;
      StdoutToLog.capture(
          () -> {
            starting.afterPropertiesSet();
            return null;
          });
      servers = broker.getBrokersAsString();
    }
    LocalStack stack = null;
    try {
      stack = new LocalStack(broker, servers, Files.createTempDirectory("cairn-local-stack"));
      stack.createClusters(options, beforeServices);
      stack.startServices(options);
      return stack;
    } catch (IOException e) {
      closeQuietly(stack, broker);
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      closeQuietly(stack, broker);
      throw e;
    }
  }

  private void createClusters(Options options, Consumer<Cluster> beforeServices) {
    List<String> names = options.clusters();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      int index = i;
      // Everything of the cluster starts on a thread of its own group, so that the threads it
      // starts say the cluster in the log (ClusterThreads).
      ClusterThreads.Group threads = new ClusterThreads.Group(name);
      threads.run("create", () -> createCluster(name, index, threads, options, beforeServices));
    }
    for (int i = 0; i < names.size(); i++) {
      Cluster cluster = clusters.get(names.get(i));
      Map<String, InetSocketAddress> peers = new LinkedHashMap<>();
      for (Cluster other : clusters.values()) {
        if (other != cluster) {
          peers.put(other.name(), other.linkAddress());
        }
      }
      cluster.configure(
          bootstrapServers, peers, options, options.dnsPort() == 0 ? 0 : options.dnsPort() + i);
    }
  }

  private void createCluster(
      String name,
      int index,
      ClusterThreads.Group threads,
      Options options,
      Consumer<Cluster> beforeServices) {
    MockKubernetesApi api =
        MockKubernetesApi.start(options.apiPort() == 0 ? 0 : options.apiPort() + index);
    DnsLink link;
    try {
      link = DnsLink.open(name, 0);
    } catch (RuntimeException e) {
      api.close();
      throw e;
    }
    Cluster cluster =
        new Cluster(
            name,
            SampleTopology.Site.of(name, index + 1),
            api,
            link,
            stateDir.resolve(name),
            threads);
    clusters.put(name, cluster);
    createTopics(bootstrapServers, cluster.topics());
    log.atInfo()
        .addKeyValue("cluster", name)
        .addKeyValue("kafka", bootstrapServers)
        .addKeyValue("topicPrefix", cluster.topics().prefix())
        .addKeyValue("kubernetesApi", api.url())
        .log("cluster created; starting its services");
    watchDnsEndpoints(cluster, options.onDnsEndpoint());
    if (options.seedSample()) {
      SampleTopology.seed(api.client(), cluster.site(), options.clusters());
    }
    if (beforeServices != null) {
      beforeServices.accept(cluster);
    }
  }

  /**
   * Creates every contract topic of a cluster up front, as an operator would with the chart: a
   * service that only reads a topic (or a person with kcat) then never waits for its producer.
   */
  private static void createTopics(String servers, TopicSettings settings) {
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

  private static void closeQuietly(LocalStack stack, EmbeddedKafkaKraftBroker broker) {
    if (stack != null) {
      stack.close();
      return;
    }
    if (broker != null) {
      broker.destroy();
    }
  }

  private void startServices(Options options) {
    // The services are independent of each other (they meet only through Kafka and DNS), so every
    // service of every cluster starts at once: on 2 cores this is clearly faster than in turn.
    List<ExecutorService> pools = new ArrayList<>();
    List<Future<?>> starting = new ArrayList<>();
    ExecutorService clusterStarter = Executors.newFixedThreadPool(clusters.size());
    try {
      for (Cluster cluster : clusters.values()) {
        ExecutorService pool =
            Executors.newFixedThreadPool(
                Cluster.SERVICES.size(), cluster.threads().factory("start"));
        pools.add(pool);
        starting.add(clusterStarter.submit(() -> cluster.start(pool)));
      }
      RuntimeException failure = null;
      for (Future<?> f : starting) {
        try {
          f.get();
        } catch (ExecutionException ex) {
          RuntimeException cause =
              ex.getCause() instanceof RuntimeException r
                  ? r
                  : new IllegalStateException(ex.getCause());
          if (failure == null) {
            failure = cause;
          } else {
            failure.addSuppressed(cause);
          }
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while starting the clusters", ex);
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      clusterStarter.shutdown();
      pools.forEach(ExecutorService::shutdown);
    }
  }

  private void watchDnsEndpoints(Cluster cluster, Consumer<String> listener) {
    if (listener == null) {
      return;
    }
    String c = cluster.name() + ": ";
    printers.add(
        DnsEndpoints.of(cluster.client())
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource r) {
                    listener.accept(c + "created " + describe(r));
                  }

                  @Override
                  public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource r) {
                    if (!DnsEndpoints.describeEndpoints(old)
                        .equals(DnsEndpoints.describeEndpoints(r))) {
                      listener.accept(c + "updated " + describe(r));
                    }
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource r, boolean unknownState) {
                    listener.accept(
                        c
                            + "deleted DNSEndpoint "
                            + r.getMetadata().getNamespace()
                            + "/"
                            + r.getMetadata().getName());
                  }
                }));
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

  /** The clusters by name, in the configured order. */
  public Map<String, Cluster> clusters() {
    return java.util.Collections.unmodifiableMap(clusters);
  }

  /** One cluster by name. */
  public Cluster cluster(String name) {
    Cluster c = clusters.get(name);
    if (c == null) {
      throw new IllegalArgumentException(
          "no cluster '" + name + "'; the clusters are " + clusters.keySet());
    }
    return c;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (SharedIndexInformer<GenericKubernetesResource> printer : printers) {
      printer.close();
    }
    List<Cluster> all = new ArrayList<>(clusters.values());
    java.util.Collections.reverse(all);
    for (Cluster c : all) {
      try {
        c.close();
      } catch (RuntimeException e) {
        log.atWarn()
            .addKeyValue("cluster", c.name())
            .setCause(e)
            .log("cluster did not stop cleanly");
      }
    }
    if (broker != null) {
      broker.destroy();
    }
  }
}
