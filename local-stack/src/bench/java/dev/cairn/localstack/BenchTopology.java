package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The benchmark's topology, the same in every cluster (with that cluster's own nodes and
 * addresses): the four nodes of {@link SampleTopology} and {@code n} copies of a failover Gslb on
 * an HTTPRoute. Route {@code i} is {@code r-i} with host {@code h-i.cloud.example.com} and backend
 * Service {@code svc-i}, whose EndpointSlice {@code svc-i-1} has one endpoint on {@code worker-a}
 * and one on {@code worker-b}, both ready; so the route's node-aware local targets are both ingress
 * nodes. Gslb {@code g-i} (failover, primary {@link #primary}) publishes the host; the route's own
 * direct-dns record is switched off, as in the sample. The Gslb's DNSEndpoint is named {@code g-i}.
 */
final class BenchTopology {

  static final String NAMESPACE = SampleTopology.NAMESPACE;

  private final int size;
  private final String primary;
  private final int splitBrainSeconds;

  BenchTopology(int size, String primary, int splitBrainSeconds) {
    this.size = size;
    this.primary = primary;
    this.splitBrainSeconds = splitBrainSeconds;
  }

  int size() {
    return size;
  }

  String primary() {
    return primary;
  }

  static String gslb(int i) {
    return "g-" + i;
  }

  static String host(int i) {
    return "h-" + i + "." + SampleTopology.GSLB_ZONE;
  }

  static String localTargetsHost(int i) {
    return "localtargets-" + host(i);
  }

  static String slice(int i) {
    return "svc-" + i + "-1";
  }

  /** The index of a Gslb or DNSEndpoint name {@code g-i}, or -1 for any other name. */
  static int indexOfGslb(String name) {
    return indexAfter(name, "g-", "");
  }

  /** The index of an EndpointSlice name {@code svc-i-1}, or -1 for any other name. */
  static int indexOfSlice(String name) {
    return indexAfter(name, "svc-", "-1");
  }

  /** The index of a host {@code h-i.cloud.example.com} (of a peer-answer key), or -1. */
  static int indexOfHost(String host) {
    return indexAfter(host, "h-", "." + SampleTopology.GSLB_ZONE);
  }

  private static int indexAfter(String name, String prefix, String suffix) {
    if (name == null || !name.startsWith(prefix) || !name.endsWith(suffix)) {
      return -1;
    }
    String digits = name.substring(prefix.length(), name.length() - suffix.length());
    if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Integer.parseInt(digits);
  }

  /** A cluster's IPv4 local targets of a route with its zone-a and/or zone-b endpoint ready. */
  static Set<String> targets(SampleTopology.Site site, boolean zoneA, boolean zoneB) {
    List<String> t = new ArrayList<>();
    if (zoneA) {
      t.add(site.ipv4().get(0));
    }
    if (zoneB) {
      t.add(site.ipv4().get(1));
    }
    return Set.copyOf(t);
  }

  /**
   * Creates the topology in one cluster through its API, {@code threads} requests at a time (the
   * mock API serves one request at a time, so parallel clients only hide the round trips).
   */
  void seed(KubernetesClient client, SampleTopology.Site site, int threads) {
    SampleTopology.seedNodes(client, site);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> work = new ArrayList<>();
      int chunk = Math.max(1, size / (threads * 8));
      for (int from = 0; from < size; from += chunk) {
        int start = from;
        int end = Math.min(size, from + chunk);
        work.add(pool.submit(() -> seedRange(client, site, start, end)));
      }
      for (Future<?> f : work) {
        f.get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("seeding " + site.cluster() + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while seeding " + site.cluster(), e);
    } finally {
      pool.shutdownNow();
    }
  }

  private void seedRange(KubernetesClient client, SampleTopology.Site site, int from, int to) {
    for (int i = from; i < to; i++) {
      String service = "svc-" + i;
      client.services().resource(SampleTopology.service(NAMESPACE, service)).create();
      client.discovery().v1().endpointSlices().resource(slice(site, i, true)).create();
      HTTPRoute route = SampleTopology.route(NAMESPACE, "r-" + i, host(i), service);
      route.getMetadata().setAnnotations(Map.of("directdns.meisterlala.dev/enabled", "false"));
      client.resources(HTTPRoute.class).resource(route).create();
      Map<String, Object> failover = new LinkedHashMap<>();
      failover.put("type", "failover");
      failover.put("primaryGeoTag", primary);
      failover.put("dnsTtlSeconds", SampleTopology.GSLB_TTL_SECONDS);
      failover.put("splitBrainThresholdSeconds", splitBrainSeconds);
      client
          .genericKubernetesResources(SampleTopology.GSLB_CONTEXT)
          .resource(SampleTopology.gslb(gslb(i), "r-" + i, failover))
          .create();
    }
  }

  /**
   * Route {@code i}'s EndpointSlice: one endpoint on worker-a (ready as given), one on worker-b.
   */
  static EndpointSlice slice(SampleTopology.Site site, int i, boolean zoneAReady) {
    String suffix = (i / 250) + "." + (i % 250 + 1);
    return new EndpointSliceBuilder()
        .withNewMetadata()
        .withNamespace(NAMESPACE)
        .withName(slice(i))
        .addToLabels("kubernetes.io/service-name", "svc-" + i)
        .endMetadata()
        .withAddressType("IPv4")
        .addNewEndpoint()
        .withAddresses("10.1." + suffix)
        .withNodeName(site.workerNode(0))
        .withNewConditions()
        .withReady(zoneAReady)
        .withServing(zoneAReady)
        .withTerminating(false)
        .endConditions()
        .endEndpoint()
        .addNewEndpoint()
        .withAddresses("10.2." + suffix)
        .withNodeName(site.workerNode(1))
        .withNewConditions()
        .withReady(true)
        .withServing(true)
        .withTerminating(false)
        .endConditions()
        .endEndpoint()
        .addNewPort()
        .withName("http")
        .withPort(8080)
        .withProtocol("TCP")
        .endPort()
        .build();
  }

  /**
   * Sets the readiness of route {@code i}'s zone-a endpoint with one replace (PUT) of the whole
   * slice, as the EndpointSlice controller does; one request, so the time the API accepted it is
   * the time of the change.
   */
  static void setZoneAReady(
      KubernetesClient client, SampleTopology.Site site, int i, boolean ready) {
    EndpointSlice current =
        client.discovery().v1().endpointSlices().inNamespace(NAMESPACE).withName(slice(i)).get();
    EndpointSlice next = slice(site, i, ready);
    next.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
    client.discovery().v1().endpointSlices().resource(next).update();
  }
}
