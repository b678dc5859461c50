package dev.cairn.topologywatcher.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cairn.commonmodel.topology.ServicePort;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServiceNormalizerTest {

  private static final Meta META =
      new Meta(
          "shop",
          "web",
          "uid",
          Map.of("app", "web"),
          Map.of("k8gb.io/hostname", "web.example.com"));

  @Test
  void readsTypeLoadBalancerStatusAndPorts() {
    ServiceState service =
        ServiceNormalizer.normalize(
            new ServiceInput(
                META,
                "LoadBalancer",
                List.of(
                    new ServiceInput.LoadBalancerIngress("203.0.113.10", null),
                    new ServiceInput.LoadBalancerIngress(null, "lb.example.com"),
                    new ServiceInput.LoadBalancerIngress("2001:db8::10", null)),
                List.of(
                    new ServiceInput.Port("http", "TCP", 80),
                    new ServiceInput.Port(null, null, 8443))));

    assertThat(service.ref().key()).isEqualTo("Service/shop/web");
    assertThat(service.type()).isEqualTo("LoadBalancer");
    assertThat(service.loadBalancerIps()).containsExactly("203.0.113.10", "2001:db8::10");
    assertThat(service.loadBalancerHostnames()).containsExactly("lb.example.com");
    assertThat(service.ports())
        .containsExactly(new ServicePort("http", "TCP", 80), new ServicePort(null, "TCP", 8443));
    assertThat(service.annotations()).containsEntry("k8gb.io/hostname", "web.example.com");
    assertThat(service.labels()).isEqualTo(Map.of("app", "web"));
    assertThat(service.problems()).isEmpty();
  }

  @Test
  void defaultsTheTypeToClusterIp() {
    assertThat(
            ServiceNormalizer.normalize(new ServiceInput(META, null, List.of(), List.of())).type())
        .isEqualTo("ClusterIP");
  }

  @Test
  void leavesOutBadStatusEntriesAndPortsAndNamesThem() {
    ServiceState service =
        ServiceNormalizer.normalize(
            new ServiceInput(
                META,
                "LoadBalancer",
                List.of(new ServiceInput.LoadBalancerIngress("010.0.0.1", "bad_name")),
                List.of(
                    new ServiceInput.Port("x", "TCP", null),
                    new ServiceInput.Port("y", "UDP", 70000))));

    assertThat(service.loadBalancerIps()).isEmpty();
    assertThat(service.loadBalancerHostnames()).isEmpty();
    assertThat(service.ports()).isEmpty();
    assertThat(service.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(
            tuple("status.loadBalancer.ingress[0].ip", "010.0.0.1"),
            tuple("status.loadBalancer.ingress[0].hostname", "bad_name"),
            tuple("spec.ports[0].port", null),
            tuple("spec.ports[1].port", "70000"));
  }
}
