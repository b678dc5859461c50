package dev.cairn.topologywatcher;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayStatusBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;

/** Kubernetes objects for the integration tests. */
final class Fixtures {

  static final ResourceDefinitionContext GSLB =
      new ResourceDefinitionContext.Builder()
          .withGroup("k8gb.io")
          .withVersion("v1beta1")
          .withKind("Gslb")
          .withPlural("gslbs")
          .withNamespaced(true)
          .build();

  private Fixtures() {}

  static Node node(String name, String zone, boolean ingress, String internalIp) {
    NodeBuilder node =
        new NodeBuilder()
            .withNewMetadata()
            .withName(name)
            .addToLabels("topology.kubernetes.io/zone", zone)
            .endMetadata()
            .withNewStatus()
            .addNewAddress()
            .withType("Hostname")
            .withAddress(name)
            .endAddress()
            .addNewAddress()
            .withType("InternalIP")
            .withAddress(internalIp)
            .endAddress()
            .addNewCondition()
            .withType("Ready")
            .withStatus("True")
            .withLastHeartbeatTime("2026-11-29T12:00:00Z")
            .endCondition()
            .endStatus();
    if (ingress) {
      node.editMetadata().addToLabels("node-role.kubernetes.io/ingress", "").endMetadata();
    }
    return node.build();
  }

  static Service service(String namespace, String name, String type, String lbIp) {
    ServiceBuilder service =
        new ServiceBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withType(type)
            .addNewPort()
            .withName("http")
            .withProtocol("TCP")
            .withPort(80)
            .endPort()
            .endSpec();
    if (lbIp != null) {
      service
          .withNewStatus()
          .withNewLoadBalancer()
          .addNewIngress()
          .withIp(lbIp)
          .endIngress()
          .endLoadBalancer()
          .endStatus();
    }
    return service.build();
  }

  static EndpointSlice slice(
      String namespace, String name, String service, Map<String, String> ipToNode) {
    EndpointSliceBuilder slice =
        new EndpointSliceBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .addToLabels("kubernetes.io/service-name", service)
            .endMetadata()
            .withAddressType("IPv4");
    ipToNode.forEach(
        (ip, node) ->
            slice.addToEndpoints(
                new EndpointBuilder()
                    .withAddresses(ip)
                    .withNodeName(node)
                    .withNewConditions()
                    .withReady(true)
                    .endConditions()
                    .build()));
    return slice.build();
  }

  static Ingress ingress(String namespace, String name, String host, String service) {
    return new IngressBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .addToAnnotations("k8gb.io/strategy", "roundRobin")
        .addNewOwnerReference()
        .withApiVersion("k8gb.io/v1beta1")
        .withKind("Gslb")
        .withName(name)
        .withUid("uid-gslb-" + name)
        .withController(true)
        .withBlockOwnerDeletion(true)
        .endOwnerReference()
        .endMetadata()
        .withNewSpec()
        .addNewRule()
        .withHost(host)
        .withNewHttp()
        .addNewPath()
        .withPath("/")
        .withPathType("Prefix")
        .withNewBackend()
        .withNewService()
        .withName(service)
        .withNewPort()
        .withNumber(80)
        .endPort()
        .endService()
        .endBackend()
        .endPath()
        .endHttp()
        .endRule()
        .endSpec()
        .withNewStatus()
        .withNewLoadBalancer()
        .addNewIngress()
        .withIp("203.0.113.30")
        .endIngress()
        .addNewIngress()
        .withIp("2001:db8::30")
        .endIngress()
        .endLoadBalancer()
        .endStatus()
        .build();
  }

  static HTTPRoute httpRoute(String namespace, String name, List<String> hosts, String service) {
    return new HTTPRouteBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .addToAnnotations("directdns.meisterlala.dev/ttl", "30")
        .addToAnnotations("kubectl.kubernetes.io/last-applied-configuration", "{}")
        .endMetadata()
        .withNewSpec()
        .withHostnames(hosts)
        .addNewRule()
        .addNewBackendRef()
        .withName(service)
        .withPort(80)
        .endBackendRef()
        .endRule()
        .endSpec()
        .build();
  }

  /** A GRPCRoute for {@code hosts} with one rule whose one backendRef is {@code service}:50051. */
  static GRPCRoute grpcRoute(String namespace, String name, List<String> hosts, String service) {
    return new GRPCRouteBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .addToLabels("app", "grpc")
        .endMetadata()
        .withNewSpec()
        .withHostnames(hosts)
        .addNewRule()
        .addNewBackendRef()
        .withName(service)
        .withPort(50051)
        .endBackendRef()
        .endRule()
        .addNewParentRef()
        .withName("public")
        .withNamespace("edge")
        .endParentRef()
        .endSpec()
        .build();
  }

  /**
   * A Gateway with one listener per host name and one {@code status.addresses} entry per {@code
   * type=value} (an empty type leaves the type out).
   */
  static Gateway gateway(
      String namespace, String name, List<String> hosts, List<String> addresses) {
    GatewayBuilder gateway =
        new GatewayBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .addToLabels("app", "web")
            .addToAnnotations("k8gb.io/strategy", "failover")
            .endMetadata()
            .withNewSpec()
            .withGatewayClassName("example")
            .endSpec();
    for (int i = 0; i < hosts.size(); i++) {
      gateway
          .editSpec()
          .addNewListener()
          .withName("l" + i)
          .withHostname(hosts.get(i))
          .withPort(443)
          .withProtocol("HTTPS")
          .endListener()
          .endSpec();
    }
    GatewayStatusBuilder status = new GatewayStatusBuilder();
    for (String address : addresses) {
      String type = address.substring(0, address.indexOf('='));
      status
          .addNewAddress()
          .withType(type.isEmpty() ? null : type)
          .withValue(address.substring(address.indexOf('=') + 1))
          .endAddress();
    }
    return gateway.withStatus(status.build()).build();
  }

  static GenericKubernetesResource gslb(
      String namespace, String name, String host, String service) {
    Map<String, Object> spec =
        Map.of(
            "ingress",
            Map.of(
                "rules",
                List.of(
                    Map.of(
                        "host",
                        host,
                        "http",
                        Map.of(
                            "paths",
                            List.of(
                                Map.of(
                                    "path",
                                    "/",
                                    "pathType",
                                    "Prefix",
                                    "backend",
                                    Map.of(
                                        "service",
                                        Map.of(
                                            "name", service, "port", Map.of("number", 80))))))))),
            "strategy",
            Map.of("type", "failover", "primaryGeoTag", "eu", "dnsTtlSeconds", 30));
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("k8gb.io/v1beta1")
        .withKind("Gslb")
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .addToAdditionalProperties("spec", spec)
        .build();
  }
}
