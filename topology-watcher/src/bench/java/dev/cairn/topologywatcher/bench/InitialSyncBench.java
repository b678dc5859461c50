package dev.cairn.topologywatcher.bench;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.topology.SyncMarker;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Initial-sync benchmark of the topology-watcher (not a test).
 *
 * <p>This process is the fixture: an embedded KRaft broker and a fabric8 CRUD mock API server
 * seeded with routes, Services with EndpointSlices and Nodes. The watcher runs in a child JVM (so
 * its heap is measured alone) exactly as in production, through {@code
 * TopologyWatcherApplication.main}. Measured: time from launching the watcher to its SYNCED marker,
 * records published, the watcher's live heap after a full GC ({@code jcmd GC.run} then {@code
 * GC.heap_info}), and the records published for a burst of Node status heartbeats (must be 0).
 *
 * <p>Arguments: {@code <runtime classpath file> <output dir>}; sizes come from system properties
 * {@code routes}, {@code services}, {@code endpointsPerService}, {@code nodes}, {@code heartbeats},
 * and the watcher's JVM options from {@code watcherJvm}.
 */
public final class InitialSyncBench {

  private static final int NAMESPACES = 100;
  private static final String PREFIX = "bench.";

  private final int routes = Integer.getInteger("routes", 10_000);
  private final int services = Integer.getInteger("services", 10_000);
  private final int endpointsPerService = Integer.getInteger("endpointsPerService", 5);
  private final int nodes = Integer.getInteger("nodes", 5_000);
  private final int heartbeats = Integer.getInteger("heartbeats", 5_000);
  private final String watcherJvm = System.getProperty("watcherJvm", "-Xmx1g -XX:+UseG1GC");
  private final AtomicLong rawBytes = new AtomicLong();
  private final Map<String, Long> rawBytesByKind = new ConcurrentHashMap<>();

  public static void main(String[] args) throws Exception {
    new InitialSyncBench().run(Path.of(args[0]), Path.of(args[1]));
    System.exit(0);
  }

  private void run(Path runtimeClasspath, Path out) throws Exception {
    Files.createDirectories(out);
    EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            responses,
            new KubernetesMixedDispatcher(responses),
            false);
    server.init(InetAddress.getByName("127.0.0.1"), 0);
    KubernetesClient client = server.createClient();
    try {
      long seedStart = System.nanoTime();
      seed(client);
      report(
          "seeded",
          "%d routes, %d services + slices (%d endpoints), %d nodes in %.1f s; %.1f MB JSON (%s)",
          routes,
          services,
          services * endpointsPerService,
          nodes,
          secondsSince(seedStart),
          rawBytes.get() / 1e6,
          rawBytesByKind);

      try (Records records = new Records(broker.getBrokersAsString())) {
        long launched = System.nanoTime();
        Process watcher =
            launchWatcher(runtimeClasspath, out, server.url("/"), broker.getBrokersAsString());
        try {
          records.awaitSynced(Duration.ofMinutes(15));
          double initial = secondsSince(launched);
          int stateRecords = records.stateCount();
          report(
              "initial publish",
              "SYNCED %.1f s after launching the watcher JVM; %d state records"
                  + " (%.0f records/s over the whole start)",
              initial,
              stateRecords,
              stateRecords / initial);
          SyncMarker synced = records.lastMarker();
          report(
              "leader term",
              "SYNCING -> SYNCED in %.1f s (generation %s; informer lists, read-back,"
                  + " diff and publish); counts %s",
              Duration.between(records.firstMarker().at(), synced.at()).toMillis() / 1000.0,
              synced.generation(),
              synced.objectCounts());

          String heap = heapAfterFullGc(watcher.pid(), out);
          report("heap after full GC", "%s", heap);

          int before = records.nodeCount();
          long hb = System.nanoTime();
          heartbeats(client);
          double hbSeconds = secondsSince(hb);
          Node barrier = client.nodes().withName("node-0").get();
          barrier.getMetadata().getLabels().put("topology.kubernetes.io/zone", "barrier");
          client.resource(barrier).update();
          records.awaitNodeRecords(before + 1, Duration.ofMinutes(5));
          int heartbeatRecords = records.nodeCount() - before - 1;
          report(
              "heartbeats",
              "%d Node status heartbeats sent in %.1f s -> %d records (barrier record"
                  + " excluded)",
              heartbeats,
              hbSeconds,
              heartbeatRecords);
        } finally {
          watcher.destroy();
          watcher.waitFor(30, TimeUnit.SECONDS);
        }
      }
    } finally {
      client.close();
      server.destroy();
      broker.destroy();
    }
  }

  private void seed(KubernetesClient client) throws Exception {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(
            new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("httproutes.gateway.networking.k8s.io")
                .endMetadata()
                .withNewSpec()
                .withGroup("gateway.networking.k8s.io")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("HTTPRoute")
                .withPlural("httproutes")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .endVersion()
                .endSpec()
                .build())
        .create();
    parallel(nodes, i -> create(client, "Node", node(i)));
    parallel(
        services,
        i -> {
          create(client, "Service", service(i));
          create(client, "EndpointSlice", slice(i));
        });
    parallel(routes, i -> create(client, "HTTPRoute", route(i)));
  }

  private void create(
      KubernetesClient client, String kind, io.fabric8.kubernetes.api.model.HasMetadata object) {
    long bytes =
        client.getKubernetesSerialization().asJson(object).getBytes(StandardCharsets.UTF_8).length;
    rawBytes.addAndGet(bytes);
    rawBytesByKind.merge(kind, bytes, Long::sum);
    client.resource(object).create();
  }

  private void heartbeats(KubernetesClient client) throws Exception {
    parallel(
        heartbeats,
        i -> {
          Node node = client.nodes().withName("node-" + (i % nodes)).get();
          node.getStatus()
              .getConditions()
              .forEach(
                  c ->
                      c.setLastHeartbeatTime(
                          "2026-11-29T13:00:" + String.format("%02d", i % 60) + "Z"));
          client.resource(node).update();
        });
  }

  private static void parallel(int count, IntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int n = i;
        futures.add(pool.submit(() -> task.accept(n)));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private Node node(int i) {
    NodeBuilder node =
        new NodeBuilder()
            .withNewMetadata()
            .withName("node-" + i)
            .addToLabels("topology.kubernetes.io/zone", "zone-" + (i % 3))
            .addToLabels("topology.kubernetes.io/region", "region-1")
            .addToLabels("kubernetes.io/hostname", "node-" + i)
            .addToLabels("kubernetes.io/os", "linux")
            .addToLabels("kubernetes.io/arch", "amd64")
            .addToLabels("node.kubernetes.io/instance-type", "m5.xlarge")
            .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
            .addToAnnotations("volumes.kubernetes.io/controller-managed-attach-detach", "true")
            .addToAnnotations("k3s.io/external-ip", "198.51." + (i / 250) + "." + (i % 250))
            .endMetadata()
            .withNewSpec()
            .withPodCIDR("10.42." + (i % 250) + ".0/24")
            .endSpec()
            .withNewStatus()
            .addNewAddress()
            .withType("InternalIP")
            .withAddress("10.0." + (i / 250) + "." + (i % 250))
            .endAddress()
            .addNewAddress()
            .withType("ExternalIP")
            .withAddress("198.51." + (i / 250) + "." + (i % 250))
            .endAddress()
            .addNewAddress()
            .withType("Hostname")
            .withAddress("node-" + i)
            .endAddress()
            .addToCapacity("cpu", new Quantity("4"))
            .addToCapacity("memory", new Quantity("16Gi"))
            .addToAllocatable("cpu", new Quantity("3900m"))
            .addToAllocatable("memory", new Quantity("15Gi"))
            .withNewNodeInfo()
            .withKubeletVersion("v1.32.0")
            .withOsImage("Debian GNU/Linux 12")
            .withContainerRuntimeVersion("containerd://1.7.24")
            .withKernelVersion("6.1.0")
            .endNodeInfo()
            .endStatus();
    for (String type : List.of("Ready", "MemoryPressure", "DiskPressure", "PIDPressure")) {
      node.editStatus()
          .addNewCondition()
          .withType(type)
          .withStatus(type.equals("Ready") ? "True" : "False")
          .withLastHeartbeatTime("2026-11-29T12:00:00Z")
          .withLastTransitionTime("2026-11-01T00:00:00Z")
          .withReason("Kubelet" + type)
          .withMessage("kubelet reports " + type)
          .endCondition()
          .endStatus();
    }
    for (int img = 0; img < 20; img++) {
      node.editStatus()
          .addNewImage()
          .withNames(
              "registry.example.com/team/app-" + img + "@sha256:" + "0".repeat(64),
              "registry.example.com/team/app-" + img + ":v1." + img)
          .withSizeBytes(50_000_000L + img)
          .endImage()
          .endStatus();
    }
    if (i % 10 == 0) {
      node.editMetadata().addToLabels("node-role.kubernetes.io/ingress", "").endMetadata();
    }
    return node.build();
  }

  private static String ns(int i) {
    return "ns-" + (i % NAMESPACES);
  }

  private static Service service(int i) {
    ServiceBuilder service =
        new ServiceBuilder()
            .withNewMetadata()
            .withNamespace(ns(i))
            .withName("svc-" + i)
            .addToLabels("app", "app-" + i)
            .endMetadata()
            .withNewSpec()
            .withType(i % 10 == 0 ? "LoadBalancer" : "ClusterIP")
            .withClusterIP("10.43." + (i / 250) + "." + (i % 250))
            .addToSelector("app", "app-" + i)
            .addNewPort()
            .withName("http")
            .withProtocol("TCP")
            .withPort(80)
            .endPort()
            .endSpec();
    if (i % 10 == 0) {
      service
          .withNewStatus()
          .withNewLoadBalancer()
          .addNewIngress()
          .withIp("203.0." + (i / 2500) + "." + (i % 250))
          .endIngress()
          .endLoadBalancer()
          .endStatus();
    }
    return service.build();
  }

  private EndpointSlice slice(int i) {
    EndpointSliceBuilder slice =
        new EndpointSliceBuilder()
            .withNewMetadata()
            .withNamespace(ns(i))
            .withName("svc-" + i + "-abcde")
            .addToLabels("kubernetes.io/service-name", "svc-" + i)
            .addToLabels(
                "endpointslice.kubernetes.io/managed-by", "endpointslice-controller.k8s.io")
            .endMetadata()
            .withAddressType("IPv4")
            .addNewPort()
            .withName("http")
            .withProtocol("TCP")
            .withPort(8080)
            .endPort();
    for (int e = 0; e < endpointsPerService; e++) {
      int n = (i * endpointsPerService + e) % nodes;
      slice.addToEndpoints(
          new EndpointBuilder()
              .withAddresses("10.42." + (n % 250) + "." + (e + 1))
              .withNodeName("node-" + n)
              .withZone("zone-" + (n % 3))
              .withNewConditions()
              .withReady(true)
              .withServing(true)
              .withTerminating(false)
              .endConditions()
              .withNewTargetRef()
              .withKind("Pod")
              .withNamespace(ns(i))
              .withName("app-" + i + "-pod-" + e)
              .endTargetRef()
              .build());
    }
    return slice.build();
  }

  private static HTTPRoute route(int i) {
    return new HTTPRouteBuilder()
        .withNewMetadata()
        .withNamespace(ns(i))
        .withName("route-" + i)
        .addToAnnotations("directdns.meisterlala.dev/ttl", "30")
        .addToAnnotations(
            "kubectl.kubernetes.io/last-applied-configuration",
            "{\"apiVersion\":\"gateway.networking.k8s.io/v1\"}")
        .endMetadata()
        .withNewSpec()
        .addNewParentRef()
        .withName("gateway")
        .withNamespace("infra")
        .endParentRef()
        .withHostnames("app-" + i + ".example.com")
        .addNewRule()
        .addNewMatch()
        .withNewPath()
        .withType("PathPrefix")
        .withValue("/")
        .endPath()
        .endMatch()
        .addNewBackendRef()
        .withName("svc-" + (i % Math.max(1, Integer.getInteger("services", 10_000))))
        .withPort(80)
        .endBackendRef()
        .endRule()
        .endSpec()
        .build();
  }

  private Process launchWatcher(Path runtimeClasspath, Path out, String masterUrl, String bootstrap)
      throws IOException {
    String classpath =
        "target/classes" + File.pathSeparator + Files.readString(runtimeClasspath).trim();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(watcherJvm.trim().split("\\s+")));
    command.addAll(
        List.of(
            "-cp",
            classpath,
            "dev.cairn.topologywatcher.TopologyWatcherApplication",
            "--watcher.kubernetes.master-url=" + masterUrl,
            "--spring.kafka.bootstrap-servers=" + bootstrap,
            "--server.port=0",
            "--watcher.topics.prefix=" + PREFIX,
            "--logging.level.root=WARN",
            "--logging.level.dev.cairn=INFO"));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(out.resolve("watcher.log").toFile())
        .start();
  }

  /**
   * Live heap: {@code GC.class_histogram} runs a full GC and then counts every live object, so its
   * total is the heap after a full GC ({@code GC.heap_info} right after {@code GC.run} also counts
   * whatever was allocated in between).
   */
  private static String heapAfterFullGc(long pid, Path out) throws Exception {
    jcmd(pid, "GC.run");
    String histogram = jcmd(pid, "GC.class_histogram");
    Files.writeString(out.resolve("class_histogram.txt"), histogram);
    Files.writeString(out.resolve("heap_info.txt"), jcmd(pid, "GC.heap_info"));
    for (String line : histogram.split("\n")) {
      if (line.startsWith("Total")) {
        String[] parts = line.trim().split("\\s+");
        return String.format("%.1f MB live (%s objects)", Long.parseLong(parts[2]) / 1e6, parts[1]);
      }
    }
    return histogram;
  }

  private static String jcmd(long pid, String command) throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid),
                command)
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return output;
  }

  private static double secondsSince(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static void report(String what, String format, Object... args) {
    System.out.printf("== %-20s %s%n", what, String.format(format, args));
  }

  /** Counts the records of the six topology topics. */
  private static final class Records implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final CairnDeserializer<SyncMarker> markers = new CairnDeserializer<>(SyncMarker.class);
    private final Thread thread;
    private final AtomicLong state = new AtomicLong();
    private final AtomicLong nodesSeen = new AtomicLong();
    private volatile SyncMarker first;
    private volatile SyncMarker last;
    private volatile boolean running = true;

    Records(String bootstrap) {
      Map<String, Object> config = new HashMap<>();
      config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
      config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
      config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
      consumer =
          new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
      thread = new Thread(this::poll, "bench-records");
      thread.setDaemon(true);
      thread.start();
    }

    private void poll() {
      List<TopicPartition> partitions = new ArrayList<>();
      for (var topic :
          List.of(
              Topics.ROUTES,
              Topics.SERVICES,
              Topics.ENDPOINTS,
              Topics.NODES,
              Topics.GSLBS,
              Topics.SYNC)) {
        List<PartitionInfo> infos = List.of();
        while (running && (infos == null || infos.isEmpty())) {
          infos = consumer.partitionsFor(topic.name(PREFIX), Duration.ofSeconds(5));
        }
        infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      String sync = Topics.SYNC.name(PREFIX);
      String nodesTopic = Topics.NODES.name(PREFIX);
      while (running) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.topic().equals(sync)) {
            last = markers.deserialize(r.topic(), r.headers(), r.value());
            if (first == null) {
              first = last;
            }
          } else {
            state.incrementAndGet();
            if (r.topic().equals(nodesTopic)) {
              nodesSeen.incrementAndGet();
            }
          }
        }
      }
    }

    void awaitSynced(Duration timeout) throws InterruptedException {
      long end = System.nanoTime() + timeout.toNanos();
      while (last == null || !last.synced()) {
        if (System.nanoTime() > end) {
          throw new IllegalStateException("no SYNCED within " + timeout);
        }
        Thread.sleep(20);
      }
    }

    void awaitNodeRecords(int count, Duration timeout) throws InterruptedException {
      long end = System.nanoTime() + timeout.toNanos();
      while (nodesSeen.get() < count) {
        if (System.nanoTime() > end) {
          throw new IllegalStateException(
              "fewer than " + count + " node records within " + timeout);
        }
        Thread.sleep(20);
      }
    }

    int stateCount() {
      return (int) state.get();
    }

    int nodeCount() {
      return (int) nodesSeen.get();
    }

    SyncMarker lastMarker() {
      return last;
    }

    SyncMarker firstMarker() {
      return first;
    }

    @Override
    public void close() throws InterruptedException {
      running = false;
      thread.join(5_000);
      consumer.close();
    }
  }
}
