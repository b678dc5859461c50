package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;

/**
 * The sample topology of the embedded default: four nodes in two zones (one ingress node and one
 * worker per zone, IPv4 and IPv6 addresses) and two HTTPRoutes whose backends run in different
 * zones, so each route's DNSEndpoint points at the ingress node of its backend's zone.
 */
final class SampleTopology {

  /** The sample route the README talks about and its expected A target. */
  static final String APP_HOST = "app.example.com";

  static final String APP_TARGET = "203.0.113.10";
  static final String SHOP_HOST = "shop.example.com";
  static final String SHOP_TARGET = "203.0.113.20";

  private SampleTopology() {}

  /** Creates the sample objects through the given client. */
  static void seed(KubernetesClient client) {
    for (Node node :
        List.of(
            node("ingress-a1", "a", true, "203.0.113.10", "10.0.0.10", "2001:db8:a::10"),
            node("ingress-b1", "b", true, "203.0.113.20", "10.0.0.20", "2001:db8:b::20"),
            node("worker-a1", "a", false, null, "10.0.1.1", null),
            node("worker-b1", "b", false, null, "10.0.1.2", null))) {
      client.nodes().resource(node).create();
    }
    client.services().resource(service("default", "web")).create();
    client.services().resource(service("default", "shop")).create();
    client
        .discovery()
        .v1()
        .endpointSlices()
        .resource(endpointSlice("default", "web", "web-a", "worker-a1", "10.244.1.5", true))
        .create();
    client
        .discovery()
        .v1()
        .endpointSlices()
        .resource(endpointSlice("default", "shop", "shop-b", "worker-b1", "10.244.2.7", true))
        .create();
    client.resources(HTTPRoute.class).resource(route("default", "app", APP_HOST, "web")).create();
    HTTPRoute shop = route("default", "shop", SHOP_HOST, "shop");
    shop.getMetadata().setAnnotations(Map.of("directdns.meisterlala.dev/ttl", "30"));
    client.resources(HTTPRoute.class).resource(shop).create();
  }

  /** A node with the zone label, optionally the ingress role, and its addresses. */
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
