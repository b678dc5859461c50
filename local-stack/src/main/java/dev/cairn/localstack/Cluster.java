package dev.cairn.localstack;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.dnsresponder.DnsResponderApplication;
import dev.cairn.dnsresponder.server.DnsServer;
import dev.cairn.healthprober.HealthProberApplication;
import dev.cairn.recordwriter.RecordWriterApplication;
import dev.cairn.strategyengine.StrategyEngineApplication;
import dev.cairn.topologywatcher.TopologyWatcherApplication;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One simulated cluster: its own mock Kubernetes API, its own five services (each its own Spring
 * application context), its own topics (prefix {@code <name>.} on the shared broker, see ADR 0003)
 * and its own dns-responder, reached by the other clusters' probers through a {@link DnsLink}.
 */
public final class Cluster implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Cluster.class);

  /** The services of a cluster, in start order (all start in parallel; stop in reverse). */
  public static final List<String> SERVICES =
      List.of(
          "topology-watcher", "strategy-engine", "record-writer", "health-prober", "dns-responder");

  private final String name;
  private final SampleTopology.Site site;
  private final MockKubernetesApi api;
  private final DnsLink link;
  private final Path stateDir;
  private final ClusterThreads.Group threads;
  private final Map<String, Supplier<SpringApplicationBuilder>> builders = new LinkedHashMap<>();
  private final Map<String, List<String>> properties = new LinkedHashMap<>();
  private final Map<String, ConfigurableApplicationContext> services = new ConcurrentHashMap<>();
  private volatile InetSocketAddress dnsAddress;

  Cluster(
      String name,
      SampleTopology.Site site,
      MockKubernetesApi api,
      DnsLink link,
      Path stateDir,
      ClusterThreads.Group threads) {
    this.name = name;
    this.site = site;
    this.api = api;
    this.link = link;
    this.stateDir = stateDir;
    this.threads = threads;
  }

  /**
   * The thread group of this cluster: what its threads start carries the cluster's name into the
   * log ({@link ClusterThreads}).
   */
  ClusterThreads.Group threads() {
    return threads;
  }

  /**
   * Prepares the services' settings.
   *
   * @param bootstrapServers the broker
   * @param peers the other clusters' geo tags and the link addresses their DNS is reached by
   * @param options the stack options (grace period, DNS port)
   * @param dnsPort this cluster's responder port (0: a free port)
   */
  void configure(
      String bootstrapServers,
      Map<String, InetSocketAddress> peers,
      LocalStack.Options options,
      int dnsPort) {
    String k8s = api.url();
    String prefix = topics().prefix();
    builders.put("topology-watcher", TopologyWatcherApplication::builder);
    builders.put("strategy-engine", StrategyEngineApplication::builder);
    builders.put("record-writer", RecordWriterApplication::builder);
    builders.put("health-prober", HealthProberApplication::builder);
    builders.put("dns-responder", DnsResponderApplication::builder);
    properties.put(
        "topology-watcher",
        List.of(
            "watcher.kubernetes.master-url=" + k8s,
            "watcher.leader-election.namespace=default",
            "watcher.cluster-name=" + name,
            "watcher.topics.prefix=" + prefix));
    properties.put(
        "strategy-engine",
        List.of(
            "engine.application-id=cairn-strategy-engine-" + name,
            "engine.state-dir=" + stateDir.resolve("streams"),
            "engine.enable-ipv6=true",
            "engine.gslb.geo-tag=" + name,
            "engine.gslb.zones=" + SampleTopology.GSLB_ZONE,
            "engine.topics.prefix=" + prefix));
    properties.put(
        "record-writer",
        List.of(
            "writer.kubernetes.master-url=" + k8s,
            "writer.leader-election.namespace=default",
            "writer.grace-period=" + options.gracePeriod().toMillis() + "ms",
            "writer.topics.prefix=" + prefix));
    List<String> prober = new ArrayList<>();
    prober.add("prober.geo-tag=" + name);
    prober.add("prober.interval=" + options.probeInterval().toMillis() + "ms");
    prober.add("prober.topics.prefix=" + prefix);
    int i = 0;
    for (Map.Entry<String, InetSocketAddress> peer : peers.entrySet()) {
      prober.add("prober.peers[" + i + "].geo-tag=" + peer.getKey());
      prober.add(
          "prober.peers["
              + i
              + "].servers="
              + peer.getValue().getAddress().getHostAddress()
              + ":"
              + peer.getValue().getPort());
      i++;
    }
    properties.put("health-prober", prober);
    properties.put(
        "dns-responder",
        List.of(
            "responder.kubernetes.master-url=" + k8s,
            "responder.listen-address=127.0.0.1",
            "responder.port=" + dnsPort,
            "responder.cluster-id=" + name,
            "responder.snapshot-file=" + stateDir.resolve("responder-snapshot.json"),
            "responder.label-selector=app.kubernetes.io/managed-by=cairn",
            "responder.zones[0].name=" + SampleTopology.GSLB_ZONE,
            "responder.zones[0].negative-ttl=5s",
            "responder.zones[1].name=" + SampleTopology.DIRECT_ZONE,
            "responder.zones[1].negative-ttl=5s"));
    for (Map.Entry<String, List<String>> e : properties.entrySet()) {
      List<String> props = new ArrayList<>(e.getValue());
      props.add("spring.kafka.bootstrap-servers=" + bootstrapServers);
      props.add("server.port=0");
      props.add("spring.main.banner-mode=off");
      props.add("spring.main.log-startup-info=false");
      e.setValue(List.copyOf(props));
    }
  }

  /** Starts the services in parallel on the given pool; returns when all have started. */
  void start(ExecutorService pool) {
    Map<String, Future<ConfigurableApplicationContext>> starting = new LinkedHashMap<>();
    for (String service : SERVICES) {
      starting.put(service, pool.submit(() -> run(service)));
    }
    RuntimeException failure = null;
    for (Map.Entry<String, Future<ConfigurableApplicationContext>> e : starting.entrySet()) {
      try {
        services.put(e.getKey(), e.getValue().get());
      } catch (ExecutionException ex) {
        RuntimeException cause =
            new IllegalStateException(
                name + "/" + e.getKey() + " failed to start: " + ex.getCause(), ex.getCause());
        if (failure == null) {
          failure = cause;
        } else {
          failure.addSuppressed(cause);
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting " + name, ex);
      }
    }
    if (failure != null) {
      throw failure;
    }
    connectLink();
  }

  private ConfigurableApplicationContext run(String service) {
    long started = System.nanoTime();
    ConfigurableApplicationContext context =
        builders
            .get(service)
            .get()
            .properties(properties.get(service).toArray(String[]::new))
            .run();
    log.atInfo()
        .addKeyValue("cluster", name)
        .addKeyValue("service", service)
        .addKeyValue("port", context.getEnvironment().getProperty("local.server.port"))
        .addKeyValue("ms", (System.nanoTime() - started) / 1_000_000)
        .log("service started");
    return context;
  }

  private void connectLink() {
    ConfigurableApplicationContext responder = services.get("dns-responder");
    int port = responder.getBean(DnsServer.class).udpPort();
    dnsAddress = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    link.connect(dnsAddress);
  }

  /** Stops one service (its context closes as on SIGTERM). */
  public void stop(String service) {
    ConfigurableApplicationContext c = services.remove(requireService(service));
    if (c != null) {
      threads.run("stop", c::close);
    }
  }

  /** Starts a stopped service again with the same settings (its DNS port stays the same). */
  public void start(String service) {
    requireService(service);
    if (services.containsKey(service)) {
      return;
    }
    if (service.equals("dns-responder") && dnsAddress != null) {
      List<String> props = new ArrayList<>(properties.get(service));
      props.replaceAll(
          p -> p.startsWith("responder.port=") ? "responder.port=" + dnsAddress.getPort() : p);
      properties.put(service, List.copyOf(props));
    }
    services.put(service, threads.call("start", () -> run(service)));
    if (service.equals("dns-responder")) {
      connectLink();
    }
  }

  /** Stops and starts one service. */
  public void restart(String service) {
    stop(service);
    start(service);
  }

  private static String requireService(String service) {
    if (!SERVICES.contains(service)) {
      throw new IllegalArgumentException("unknown service '" + service + "'; known: " + SERVICES);
    }
    return service;
  }

  /** The cluster's name, which is also its geo tag. */
  public String name() {
    return name;
  }

  /** The cluster's topic names: the contract names with the prefix {@code <name>.}. */
  public TopicSettings topics() {
    TopicSettings defaults = TopicSettings.defaults();
    return new TopicSettings(name + ".", defaults.partitions(), defaults.replicationFactor());
  }

  /** The mock API server URL. */
  public String apiUrl() {
    return api.url();
  }

  /** A client of this cluster's mock API (owned by the stack). */
  public KubernetesClient client() {
    return api.client();
  }

  /** The number of requests this cluster's mock API has received. */
  public int apiRequestCount() {
    return api.requestCount();
  }

  /** The responder's address (UDP and TCP), for {@code dig} and the live view. */
  public InetSocketAddress dnsAddress() {
    return dnsAddress;
  }

  /** Where the other clusters' probers reach this cluster's DNS. */
  public InetSocketAddress linkAddress() {
    return link.address();
  }

  /** Black-holes this cluster's DNS for the other clusters (or restores it). */
  public void setSilent(boolean silent) {
    link.setCut(silent);
  }

  /** The sample addresses of this cluster. */
  SampleTopology.Site site() {
    return site;
  }

  MockKubernetesApi api() {
    return api;
  }

  /** The running service contexts by name. */
  public Map<String, ConfigurableApplicationContext> services() {
    Map<String, ConfigurableApplicationContext> ordered = new LinkedHashMap<>();
    for (String s : SERVICES) {
      ConfigurableApplicationContext c = services.get(s);
      if (c != null) {
        ordered.put(s, c);
      }
    }
    return ordered;
  }

  /** The actuator port of a running service. */
  public String actuatorPort(String service) {
    ConfigurableApplicationContext c = services.get(service);
    return c == null ? null : c.getEnvironment().getProperty("local.server.port");
  }

  /** How long to wait before giving up on a start. */
  static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  @Override
  public void close() {
    threads.run("stop", this::stopAll);
  }

  private void stopAll() {
    List<String> names = new ArrayList<>(SERVICES);
    java.util.Collections.reverse(names);
    for (String s : names) {
      ConfigurableApplicationContext c = services.remove(s);
      if (c == null) {
        continue;
      }
      try {
        c.close();
      } catch (RuntimeException e) {
        log.atWarn()
            .addKeyValue("cluster", name)
            .addKeyValue("service", s)
            .setCause(e)
            .log("service did not stop cleanly");
      }
    }
    link.close();
    api.close();
  }
}
