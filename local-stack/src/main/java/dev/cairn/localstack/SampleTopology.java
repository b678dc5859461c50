package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sample topology of the embedded default, created in each cluster with that cluster's own
 * nodes and addresses:
 *
 * <ul>
 *   <li>four nodes in two zones (an ingress node and a worker per zone; the ingress nodes have an
 *       IPv4 and an IPv6 ExternalIP);
 *   <li>{@value #APP_HOST}: a failover Gslb, primary {@code eu}, whose resourceRef is the HTTPRoute
 *       {@code app} (node-aware local targets: the ingress node of the zone its backend runs in);
 *   <li>{@value #SHOP_HOST}: a roundRobin Gslb weighted {@code eu} 70, {@code us} 30, on the
 *       HTTPRoute {@code shop};
 *   <li>{@value #BLOG_HOST}: a plain direct-dns HTTPRoute, answered by each cluster for itself.
 * </ul>
 *
 * <p>The routes behind the Gslbs switch their own DNSEndpoint off ({@code
 * directdns.meisterlala.dev/enabled: "false"}): the Gslb publishes the name.
 */
final class SampleTopology {

  /** The failover Gslb's host. */
  static final String APP_HOST = "app.cloud.example.com";

  /** The weighted roundRobin Gslb's host. */
  static final String SHOP_HOST = "shop.cloud.example.com";

  /** The plain direct-dns route's host. */
  static final String BLOG_HOST = "blog.direct.example.com";

  /** The zone of the Gslb hosts, delegated to each cluster's responder. */
  static final String GSLB_ZONE = "cloud.example.com";

  /** The zone of the plain routes. */
  static final String DIRECT_ZONE = "direct.example.com";

  /** The hosts the live view shows, in order. */
  static final List<String> HOSTS = List.of(APP_HOST, SHOP_HOST, BLOG_HOST);

  /** The namespace of every sample object. */
  static final String NAMESPACE = "default";

  /** The failover Gslb's split-brain threshold: short, so the scenario runs in seconds. */
  static final int SPLIT_BRAIN_SECONDS = 12;

  /** The Gslbs' record TTL. */
  static final int GSLB_TTL_SECONDS = 5;

  private SampleTopology() {}

  /**
   * One cluster's addresses: zone names and the ingress nodes' IPv4 and IPv6 ExternalIPs per zone
   * (index 0 is zone a, 1 zone b).
   */
  record Site(String cluster, List<String> zones, List<String> ipv4, List<String> ipv6) {

    /** The sites of the known cluster names; other names get addresses from their position. */
    static Site of(String cluster, int index) {
      return switch (cluster) {
        case "eu" ->
            new Site(
                cluster,
                List.of("eu-west-1a", "eu-west-1b"),
                List.of("203.0.113.11", "203.0.113.12"),
                List.of("2001:db8:e0::11", "2001:db8:e0::12"));
        case "us" ->
            new Site(
                cluster,
                List.of("us-east-1a", "us-east-1b"),
                List.of("198.51.100.21", "198.51.100.22"),
                List.of("2001:db8:a0::21", "2001:db8:a0::22"));
        default ->
            new Site(
                cluster,
                List.of(cluster + "-a", cluster + "-b"),
                List.of("192.0.2." + (10 * index + 1), "192.0.2." + (10 * index + 2)),
                List.of("2001:db8:" + index + "::1", "2001:db8:" + index + "::2"));
      };
    }

    /** The ingress node of zone a (where {@code web} runs): the failover Gslb's local target. */
    String appIpv4() {
      return ipv4.get(0);
    }

    String appIpv6() {
      return ipv6.get(0);
    }

    /** The ingress node of zone b (where {@code shop} and {@code blog} run). */
    String shopIpv4() {
      return ipv4.get(1);
    }

    String shopIpv6() {
      return ipv6.get(1);
    }

    String ingressNode(int zone) {
      return "ingress-" + (zone == 0 ? "a" : "b");
    }

    String workerNode(int zone) {
      return "worker-" + (zone == 0 ? "a" : "b");
    }
  }

  /** Creates the site's nodes: an ingress and a worker node in each of its two zones. */
  static void seedNodes(KubernetesClient client, Site site) {
    for (int zone = 0; zone < 2; zone++) {
      String z = site.zones().get(zone);
      client
          .nodes()
          .resource(
              node(
                  site.ingressNode(zone),
                  z,
                  true,
                  site.ipv4().get(zone),
                  "10.0." + zone + ".10",
                  site.ipv6().get(zone)))
          .create();
      client
          .nodes()
          .resource(node(site.workerNode(zone), z, false, null, "10.0." + zone + ".20", null))
          .create();
    }
  }

  /** Creates one cluster's sample objects through the given client. */
  static void seed(KubernetesClient client, Site site, List<String> allClusters) {
    seedNodes(client, site);
    for (String svc : List.of("web", "shop", "blog")) {
      client.services().resource(service(NAMESPACE, svc)).create();
    }
    createSlice(
        client, endpointSlice(NAMESPACE, "web", "web-1", site.workerNode(0), "10.244.0.5", true));
    createSlice(
        client, endpointSlice(NAMESPACE, "shop", "shop-1", site.workerNode(1), "10.244.1.7", true));
    createSlice(
        client, endpointSlice(NAMESPACE, "blog", "blog-1", site.workerNode(1), "10.244.1.9", true));

    HTTPRoute app = route(NAMESPACE, "app", APP_HOST, "web");
    app.getMetadata().setAnnotations(Map.of("directdns.meisterlala.dev/enabled", "false"));
    client.resources(HTTPRoute.class).resource(app).create();
    HTTPRoute shop = route(NAMESPACE, "shop", SHOP_HOST, "shop");
    shop.getMetadata().setAnnotations(Map.of("directdns.meisterlala.dev/enabled", "false"));
    client.resources(HTTPRoute.class).resource(shop).create();
    HTTPRoute blog = route(NAMESPACE, "blog", BLOG_HOST, "blog");
    blog.getMetadata().setAnnotations(Map.of("directdns.meisterlala.dev/ttl", "5"));
    client.resources(HTTPRoute.class).resource(blog).create();

    Map<String, Object> failover = new LinkedHashMap<>();
    failover.put("type", "failover");
    failover.put("primaryGeoTag", allClusters.get(0));
    failover.put("dnsTtlSeconds", GSLB_TTL_SECONDS);
    failover.put("splitBrainThresholdSeconds", SPLIT_BRAIN_SECONDS);
    createGslb(client, gslb("app", "app", failover));
    Map<String, Object> weighted = new LinkedHashMap<>();
    weighted.put("type", "roundRobin");
    Map<String, Object> weights = new LinkedHashMap<>();
    for (int i = 0; i < allClusters.size(); i++) {
      weights.put(allClusters.get(i), i == 0 ? 70 : 30);
    }
    weighted.put("weight", weights);
    weighted.put("dnsTtlSeconds", GSLB_TTL_SECONDS);
    weighted.put("splitBrainThresholdSeconds", SPLIT_BRAIN_SECONDS);
    createGslb(client, gslb("shop", "shop", weighted));
  }

  private static void createSlice(KubernetesClient client, EndpointSlice slice) {
    client.discovery().v1().endpointSlices().resource(slice).create();
  }

  private static void createGslb(KubernetesClient client, GenericKubernetesResource gslb) {
    client.genericKubernetesResources(GSLB_CONTEXT).resource(gslb).create();
  }

  /** The k8gb Gslb kind, for the generic client. */
  static final ResourceDefinitionContext GSLB_CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup("k8gb.io")
          .withVersion("v1beta1")
          .withKind("Gslb")
          .withPlural("gslbs")
          .withNamespaced(true)
          .build();

  /** A Gslb on an HTTPRoute of the same namespace. */
  static GenericKubernetesResource gslb(String name, String route, Map<String, Object> strategy) {
    GenericKubernetesResource gslb = new GenericKubernetesResource();
    gslb.setApiVersion("k8gb.io/v1beta1");
    gslb.setKind("Gslb");
    gslb.setMetadata(new ObjectMetaBuilder().withNamespace(NAMESPACE).withName(name).build());
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put(
        "resourceRef",
        Map.of("apiVersion", "gateway.networking.k8s.io/v1", "kind", "HTTPRoute", "name", route));
    spec.put("strategy", strategy);
    gslb.setAdditionalProperty("spec", spec);
    return gslb;
  }

  /** A Ready node with the zone label, optionally the ingress role, and its addresses. */
  static Node node(
      String name,
      String zone,
      boolean ingress,
      String externalIp,
      String internalIp,
      String externalIpv6) {
    NodeBuilder b =
        new NodeBuilder()
            .withNewMetadata()
            .withName(name)
            .addToLabels("topology.kubernetes.io/zone", zone)
            .addToLabels("kubernetes.io/hostname", name)
            .endMetadata()
            .withNewStatus()
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .withReason("KubeletReady")
            .withMessage("kubelet is posting ready status")
            .endCondition()
            .addNewAddress()
            .withType("InternalIP")
            .withAddress(internalIp)
            .endAddress()
            .addNewAddress()
            .withType("Hostname")
            .withAddress(name)
            .endAddress()
            .endStatus();
    if (ingress) {
      b.editMetadata().addToLabels("node-role.kubernetes.io/ingress", "").endMetadata();
    }
    if (externalIp != null) {
      b.editStatus()
          .addNewAddress()
          .withType("ExternalIP")
          .withAddress(externalIp)
          .endAddress()
          .endStatus();
    }
    if (externalIpv6 != null) {
      b.editStatus()
          .addNewAddress()
          .withType("ExternalIP")
          .withAddress(externalIpv6)
          .endAddress()
          .endStatus();
    }
    return b.build();
  }

  static Service service(String namespace, String name) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withType("ClusterIP")
        .addNewPort()
        .withName("http")
        .withProtocol("TCP")
        .withPort(80)
        .endPort()
        .endSpec()
        .build();
  }

  /** An EndpointSlice of a Service with one endpoint on a node. */
  static EndpointSlice endpointSlice(
      String namespace, String service, String name, String nodeName, String ip, boolean ready) {
    return new EndpointSliceBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .addToLabels("kubernetes.io/service-name", service)
        .endMetadata()
        .withAddressType("IPv4")
        .addNewEndpoint()
        .withAddresses(ip)
        .withNodeName(nodeName)
        .withNewConditions()
        .withReady(ready)
        .withServing(ready)
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

  /** An HTTPRoute with one hostname and one Service backend. */
  static HTTPRoute route(String namespace, String name, String hostname, String service) {
    return new HTTPRouteBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withHostnames(hostname)
        .addNewParentRef()
        .withName("public")
        .endParentRef()
        .addNewRule()
        .addNewBackendRef()
        .withName(service)
        .withPort(80)
        .endBackendRef()
        .endRule()
        .endSpec()
        .build();
  }
}
