package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.http.Dispatcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * The mock Kubernetes API on its own: request latency and throughput of fabric8's CRUD dispatcher
 * ({@code fabric8}, the anchor) and of {@link IndexedCrudDispatcher} ({@code indexed}, what the
 * stack uses), each in a fresh server filled with {@code n} Gslbs, HTTPRoutes, EndpointSlices and
 * DNSEndpoints while four informers (one per kind) watch them from a second client.
 *
 * <p>Phases per dispatcher: fill ({@code clients} threads creating objects), informers caught up,
 * gets, DNSEndpoint updates and Gslb status updates (one client, then {@code clients} at once),
 * lists (whole kind, and by label selector), and watch close under write load (the time the next
 * request waits after a client closes a watch while events are flowing to it).
 *
 * <p>Run: {@code ./mvnw -o -B -pl local-stack -Pbench test -Dtest=MockApiBench
 * -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.mock.n=2500] [-Dbench.mock.clients=4]
 * [-Dbench.mock.impl=fabric8,indexed,indexed-fabric8-updates] [-Dbench.mock.ops=2000]}; report also in {@code
 * target/bench/mock-api-n<N>.txt}.
 */
class MockApiBench {

  private static final String NS = BenchTopology.NAMESPACE;

  private final List<String> report = Collections.synchronizedList(new ArrayList<>());

  @Test
  void measures() throws Exception {
    int n = Integer.getInteger("bench.mock.n", 2500);
    int clients = Integer.getInteger("bench.mock.clients", 4);
    int ops = Integer.getInteger("bench.mock.ops", 1000);
    List<String> impls =
        List.of(System.getProperty("bench.mock.impl", "fabric8,indexed").split(","));
    line(
        "MockApiBench %s n=%d per kind (%d objects), clients=%d, ops=%d, load %s",
        Instant.now(), n, 4 * n, clients, ops, load());
    for (String impl : impls) {
      run(impl.trim(), n, clients, ops);
    }
    Path out = Path.of("target", "bench", "mock-api-n" + n + ".txt");
    Files.createDirectories(out.getParent());
    Files.write(out, report, StandardCharsets.UTF_8);
  }

  private static Dispatcher dispatcher(String impl) {
    return switch (impl) {
      case "fabric8" -> new KubernetesMixedDispatcher(new HashMap<>());
      case "indexed" -> new IndexedCrudDispatcher();
      // The indexed store with fabric8's own update path (two parses of the body, two JSON diffs,
      // the stored JSON parsed again), the anchor of the cheaper one.
      case "indexed-fabric8-updates" ->
          new IndexedCrudDispatcher(
              IndexedCrudDispatcher.DEFAULT_HISTORY,
              IndexedCrudDispatcher.DEFAULT_BOOKMARK_INTERVAL,
              false);
      default -> throw new IllegalArgumentException("bench.mock.impl: unknown " + impl);
    };
  }

  private void run(String impl, int n, int clients, int ops) throws Exception {
    line("");
    line("== %s ==", impl);
    try (MockKubernetesApi api = MockKubernetesApi.start(0, dispatcher(impl));
        KubernetesClient watching = client(api.url())) {
      KubernetesClient c = api.client();
      AtomicLong events = new AtomicLong();
      List<SharedIndexInformer<?>> informers = informers(watching, events);
      long startRequests = api.requestCount();

      // Fill: every thread creates whole routes (slice, route, Gslb, DNSEndpoint) of its share.
      Map<String, List<Double>> create = new LinkedHashMap<>();
      for (String kind : List.of("EndpointSlice", "HTTPRoute", "Gslb", "DNSEndpoint")) {
        create.put(kind, Collections.synchronizedList(new ArrayList<>()));
      }
      List<Double> lastTenth = Collections.synchronizedList(new ArrayList<>());
      long fillStart = System.nanoTime();
      parallel(
          clients,
          n,
          i -> {
            SampleTopology.Site site = SampleTopology.Site.of("eu", 0);
            double s =
                time(
                    () ->
                        c.discovery()
                            .v1()
                            .endpointSlices()
                            .resource(BenchTopology.slice(site, i, true))
                            .create());
            double r =
                time(
                    () ->
                        c.resources(HTTPRoute.class)
                            .resource(
                                SampleTopology.route(
                                    NS, "r-" + i, BenchTopology.host(i), "svc-" + i))
                            .create());
            double g =
                time(
                    () ->
                        c.genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
                            .resource(
                                SampleTopology.gslb(
                                    BenchTopology.gslb(i), "r-" + i, Map.of("type", "failover")))
                            .create());
            double d =
                time(() -> DnsEndpoints.of(c).resource(dnsEndpoint(i, "192.0.2.1")).create());
            create.get("EndpointSlice").add(s);
            create.get("HTTPRoute").add(r);
            create.get("Gslb").add(g);
            create.get("DNSEndpoint").add(d);
            if (i >= n - n / 10) {
              lastTenth.add(s);
              lastTenth.add(r);
              lastTenth.add(g);
              lastTenth.add(d);
            }
          });
      double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
      line(
          "fill: %d creates in %.1f s = %.0f/s (load %s)",
          4 * n, fillSeconds, 4 * n / fillSeconds, load());
      create.forEach((kind, l) -> line("  create %-13s %s", kind, Stats.of(l).format()));
      line("  create, last tenth    %s", Stats.of(lastTenth).format());
      long expected = 4L * n;
      double caughtUp = awaitEvents(events, expected, fillStart);
      line("informers saw all %d adds %.1f s after the fill started", expected, caughtUp);

      // Gets.
      for (int threads : List.of(1, clients)) {
        List<Double> l = Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime();
        parallel(
            threads,
            ops,
            k -> {
              int i = ThreadLocalRandom.current().nextInt(n);
              l.add(
                  time(
                      () ->
                          c.genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
                              .inNamespace(NS)
                              .withName(BenchTopology.gslb(i))
                              .get()));
            });
        line(
            "get Gslb, %d client(s): %s, %.0f/s",
            threads, Stats.of(l).format(), ops / ((System.nanoTime() - t0) / 1e9));
      }

      // Updates: a DNSEndpoint's targets (PUT), a Gslb's status (PUT .../status); distinct objects.
      long before = events.get();
      int updates = 0;
      for (int threads : List.of(1, clients)) {
        int base = threads == 1 ? 0 : n / 2;
        String target = "192.0.2." + (10 + threads);
        List<Double> dns = Collections.synchronizedList(new ArrayList<>());
        List<Double> status = Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime();
        int rounds = Math.min(ops / 2, n / 2);
        parallel(
            threads,
            rounds,
            k -> {
              int i = (base + k) % n;
              GenericKubernetesResource current =
                  DnsEndpoints.of(c).inNamespace(NS).withName(BenchTopology.gslb(i)).get();
              GenericKubernetesResource changed = dnsEndpoint(i, target);
              changed.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
              dns.add(time(() -> DnsEndpoints.of(c).resource(changed).update()));
              GenericKubernetesResource gslb =
                  c.genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
                      .inNamespace(NS)
                      .withName(BenchTopology.gslb(i))
                      .get();
              gslb.setAdditionalProperty(
                  "status", Map.of("healthyRecords", Map.of("h", List.of(target))));
              status.add(
                  time(
                      () ->
                          c.genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
                              .resource(gslb)
                              .updateStatus()));
            });
        updates += 2 * rounds;
        double seconds = (System.nanoTime() - t0) / 1e9;
        line(
            "update, %d client(s) (each round: get, PUT, get, PUT status): %.0f rounds/s",
            threads, rounds / seconds);
        line("  PUT DNSEndpoint   %s", Stats.of(dns).format());
        line("  PUT Gslb status   %s", Stats.of(status).format());
      }
      double seen = awaitEvents(events, before + updates, System.nanoTime());
      line("informers saw all %d updates %.1f s after the last one", updates, seen);

      // Lists.
      List<Double> lists = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        lists.add(
            time(
                () ->
                    c.genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
                        .inAnyNamespace()
                        .list()));
      }
      line("list all %d Gslbs: %s", n, Stats.of(lists).format());
      List<Double> selected = new ArrayList<>();
      for (int k = 0; k < 50; k++) {
        int i = ThreadLocalRandom.current().nextInt(n);
        selected.add(
            time(
                () ->
                    c.discovery()
                        .v1()
                        .endpointSlices()
                        .inNamespace(NS)
                        .withLabel("kubernetes.io/service-name", "svc-" + i)
                        .list()));
      }
      line("list EndpointSlices by label (1 of %d): %s", n, Stats.of(selected).format());

      watchClose(c, n);
      line("requests served: %d", api.requestCount() - startRequests);
      informers.forEach(SharedIndexInformer::close);
    }
  }

  /**
   * Opens a watch on all DNSEndpoints (no resourceVersion: the server first sends every object as
   * ADDED), closes it as soon as the first event arrives, and times the next get: how long a client
   * closing a watch during a burst of events holds up everyone else (an informer's periodic
   * re-watch, or one stopping).
   */
  private void watchClose(KubernetesClient c, int n) throws Exception {
    List<String> after = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      CountDownLatch first = new CountDownLatch(1);
      Watch watch =
          DnsEndpoints.of(c)
              .inNamespace(NS)
              .watch(
                  new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, GenericKubernetesResource resource) {
                      first.countDown();
                    }

                    @Override
                    public void onClose(WatcherException cause) {}
                  });
      first.await(60, TimeUnit.SECONDS);
      watch.close();
      long t0 = System.nanoTime();
      int failed = 0;
      while (true) {
        try {
          c.genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
              .inNamespace(NS)
              .withName(BenchTopology.gslb(ThreadLocalRandom.current().nextInt(n)))
              .get();
          break;
        } catch (RuntimeException e) {
          failed++;
          if (System.nanoTime() - t0 > Duration.ofMinutes(3).toNanos()) {
            throw e;
          }
        }
      }
      after.add(
          String.format(
              Locale.ROOT, "%.1f ms (%d timed out)", (System.nanoTime() - t0) / 1e6, failed));
    }
    line(
        "watch on %d DNSEndpoints closed during its initial events: next get answered after %s",
        n, after);
  }

  private static List<SharedIndexInformer<?>> informers(KubernetesClient c, AtomicLong events) {
    List<SharedIndexInformer<?>> list = new ArrayList<>();
    list.add(
        c.genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
            .inAnyNamespace()
            .inform(counting(events)));
    list.add(DnsEndpoints.of(c).inAnyNamespace().inform(counting(events)));
    list.add(c.resources(HTTPRoute.class).inAnyNamespace().inform(counting(events)));
    list.add(
        c.discovery()
            .v1()
            .endpointSlices()
            .inAnyNamespace()
            .inform(MockApiBench.<EndpointSlice>counting(events)));
    return list;
  }

  private static <T extends HasMetadata> ResourceEventHandler<T> counting(AtomicLong events) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        events.incrementAndGet();
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        if (!oldObj
            .getMetadata()
            .getResourceVersion()
            .equals(newObj.getMetadata().getResourceVersion())) {
          events.incrementAndGet();
        }
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {}
    };
  }

  private static double awaitEvents(AtomicLong events, long expected, long sinceNanos)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (events.get() < expected && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(10);
    }
    if (events.get() < expected) {
      throw new IllegalStateException("informers saw " + events.get() + " of " + expected);
    }
    return (System.nanoTime() - sinceNanos) / 1e9;
  }

  static GenericKubernetesResource dnsEndpoint(int i, String target) {
    GenericKubernetesResource d = new GenericKubernetesResource();
    d.setApiVersion("externaldns.k8s.io/v1alpha1");
    d.setKind("DNSEndpoint");
    d.setMetadata(
        new ObjectMetaBuilder()
            .withNamespace(NS)
            .withName(BenchTopology.gslb(i))
            .addToLabels("app.kubernetes.io/managed-by", "cairn-record-writer")
            .build());
    d.setAdditionalProperty(
        "spec",
        Map.of(
            "endpoints",
            List.of(
                Map.of(
                    "dnsName",
                    BenchTopology.host(i),
                    "recordType",
                    "A",
                    "recordTTL",
                    30,
                    "targets",
                    List.of(target)))));
    return d;
  }

  private static KubernetesClient client(String url) {
    return new KubernetesClientBuilder()
        .withConfig(
            new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl(url)
                .withNamespace(NS)
                .build())
        .build();
  }

  private static void parallel(int threads, int count, IntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        work.add(
            pool.submit(
                () -> {
                  for (int i = first; i < count; i += threads) {
                    task.accept(i);
                  }
                }));
      }
      for (Future<?> f : work) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static double time(Runnable call) {
    long t0 = System.nanoTime();
    call.run();
    return (System.nanoTime() - t0) / 1e6;
  }

  private static String load() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "?";
    }
  }

  private void line(String format, Object... args) {
    String s = String.format(Locale.ROOT, format, args);
    System.out.println(s);
    report.add(s);
  }
}
