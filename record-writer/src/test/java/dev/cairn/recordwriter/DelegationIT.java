package dev.cairn.recordwriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServiceStatusBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The zone delegation k8gb publishes for external-dns (k8gb.md §7.2), end to end against the
 * fabric8 CRUD mock: the DNSEndpoint {@code k8gb-ns-extdns-<zone>} with the zone's NS records and
 * this cluster's glue, from configured addresses or from the dns-responder Service's load balancer,
 * following that Service, and neither deleted nor rewritten when the writer starts again.
 */
class DelegationIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String NS = "cairn-system";
  private static final String NAME = "k8gb-ns-extdns-cloud-example-com";

  private MockKubernetes api;
  private WriterRun writer;

  @BeforeEach
  void start() {
    api = new MockKubernetes(true);
  }

  @AfterEach
  void stop() {
    if (writer != null) {
      writer.close();
    }
    api.close();
  }

  private static String[] delegation(String prefix, String... more) {
    List<String> props =
        new java.util.ArrayList<>(
            List.of(
                "writer.delegation.enabled=true",
                "writer.delegation.zones[0].parent-zone=example.com",
                "writer.delegation.zones[0].load-balanced-zone=cloud.example.com",
                "writer.delegation.geo-tag=eu",
                "writer.delegation.peer-geo-tags=us",
                "writer.delegation.namespace=" + NS));
    props.addAll(List.of(more));
    return props.toArray(String[]::new);
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> endpoints(GenericKubernetesResource r) {
    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
    return (List<Map<String, Object>>) spec.get("endpoints");
  }

  private static String describe(Map<String, Object> e) {
    return e.get("dnsName")
        + " "
        + e.get("recordType")
        + " "
        + e.get("recordTTL")
        + " "
        + e.get("targets");
  }

  private GenericKubernetesResource awaitDelegation(Predicate<List<String>> records) {
    return await()
        .atMost(WAIT)
        .until(
            () -> api.get(NS, NAME),
            r ->
                r != null
                    && records.test(endpoints(r).stream().map(DelegationIT::describe).toList()));
  }

  @Test
  void publishesTheDelegationFromConfiguredAddresses() {
    writer =
        WriterRun.start(
            api,
            "dg1.",
            delegation("dg1.", "writer.delegation.addresses=203.0.113.53,2001:db8::53"));

    GenericKubernetesResource r =
        awaitDelegation(
            records ->
                records.equals(
                    List.of(
                        "cloud.example.com NS 30 [gslb-ns-eu-cloud.example.com,"
                            + " gslb-ns-us-cloud.example.com]",
                        "gslb-ns-eu-cloud.example.com A 30 [203.0.113.53]",
                        "gslb-ns-eu-cloud.example.com AAAA 30 [2001:db8::53]")));

    assertThat(r.getMetadata().getLabels())
        .containsEntry("k8gb.io/dnstype", "extdns")
        .containsEntry("k8gb.absa.oss/dnstype", "extdns")
        .containsEntry("app.kubernetes.io/managed-by", "cairn");
    assertThat(r.getMetadata().getOwnerReferences()).isNullOrEmpty();
    assertThat(writer.get("/api/v1/records/" + NS + "/" + NAME).body())
        .contains("ZoneDelegation/" + NS + "/" + NAME);
  }

  @Test
  void followsTheLoadBalancerOfTheResponderServiceAndSurvivesARestart() {
    api.client().services().inNamespace("default").resource(dnsService()).create();
    setLoadBalancerIp("198.51.100.53");
    String[] props =
        delegation("dg2.", "writer.delegation.service=default/cairn-dns-responder-dns");
    writer = WriterRun.start(api, "dg2.", props);

    awaitDelegation(
        records -> records.contains("gslb-ns-eu-cloud.example.com A 30 [198.51.100.53]"));

    setLoadBalancerIp("198.51.100.54");
    awaitDelegation(
        records -> records.contains("gslb-ns-eu-cloud.example.com A 30 [198.51.100.54]"));

    // Started again, the writer finds its delegation in place: nothing is deleted or rewritten.
    await().atMost(WAIT).until(writer::writesSettled);
    writer.close();
    int before = api.writesTo(NS, NAME).size();
    writer = WriterRun.start(api, "dg2.", props);
    await().atMost(WAIT).until(() -> writer.get("/actuator/health/readiness").statusCode() == 200);
    writer.bean(dev.cairn.recordwriter.reconcile.RecordReconciler.class).requestResync();
    await().atMost(WAIT).until(writer::writesSettled);
    assertThat(api.writesTo(NS, NAME)).hasSize(before);
    assertThat(api.get(NS, NAME)).isNotNull();
  }

  @Test
  void keepsThePublishedDelegationWhileTheServiceHasNoAddress() {
    api.client().services().inNamespace("default").resource(dnsService()).create();
    setLoadBalancerIp("198.51.100.53");
    writer =
        WriterRun.start(
            api,
            "dg3.",
            delegation("dg3.", "writer.delegation.service=default/cairn-dns-responder-dns"));
    awaitDelegation(
        records -> records.contains("gslb-ns-eu-cloud.example.com A 30 [198.51.100.53]"));

    // The load balancer loses its address: the delegation stays as it was published.
    Service s =
        api.client().services().inNamespace("default").withName("cairn-dns-responder-dns").get();
    s.getStatus().getLoadBalancer().setIngress(List.of());
    api.client().services().inNamespace("default").resource(s).updateStatus();
    await()
        .atMost(WAIT)
        .until(
            () -> writer.get("/api/v1/records/" + NS + "/" + NAME).body(),
            b -> b.contains("not known yet"));
    await().atMost(WAIT).until(writer::writesSettled);

    assertThat(endpoints(api.get(NS, NAME)).stream().map(DelegationIT::describe).toList())
        .contains("gslb-ns-eu-cloud.example.com A 30 [198.51.100.53]");
  }

  private static Service dnsService() {
    return new ServiceBuilder()
        .withNewMetadata()
        .withNamespace("default")
        .withName("cairn-dns-responder-dns")
        .endMetadata()
        .withNewSpec()
        .withType("LoadBalancer")
        .endSpec()
        .build();
  }

  private void setLoadBalancerIp(String ip) {
    Service s =
        api.client().services().inNamespace("default").withName("cairn-dns-responder-dns").get();
    s.setStatus(
        new ServiceStatusBuilder()
            .withNewLoadBalancer()
            .withIngress(new LoadBalancerIngressBuilder().withIp(ip).build())
            .endLoadBalancer()
            .build());
    api.client().services().inNamespace("default").resource(s).updateStatus();
  }
}
