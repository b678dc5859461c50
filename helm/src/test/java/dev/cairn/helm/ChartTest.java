package dev.cairn.helm;

import static dev.cairn.helm.RenderedChart.NAMESPACE;
import static dev.cairn.helm.RenderedChart.RELEASE;
import static dev.cairn.helm.RenderedChart.SERVICES;
import static dev.cairn.helm.RenderedChart.minimalValues;
import static dev.cairn.helm.RenderedChart.render;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The umbrella chart as Helm renders it: objects, wiring, and the errors bad values get. */
class ChartTest {

  private static Map<String, Object> with(Object... keysAndValues) {
    return RenderedChart.values(keysAndValues);
  }

  private static Container container(Deployment d) {
    return d.getSpec().getTemplate().getSpec().getContainers().get(0);
  }

  private static String env(Container c, String name) {
    return c.getEnv().stream()
        .filter(e -> e.getName().equals(name))
        .map(EnvVar::getValue)
        .findFirst()
        .orElse(null);
  }

  @Test
  void lintsCleanInStrictMode() {
    LintResult lint = new Helm(RenderedChart.CHART).lint().strict().call();

    assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
    assertThat(lint.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
  }

  @Test
  void rendersEveryServiceWithItsConfigAccountServiceAndDeployment() {
    RenderedChart chart = render();

    for (String service : SERVICES) {
      String name = RELEASE + "-" + service;
      Deployment d = chart.get(Deployment.class, name);
      assertThat(d.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
      assertThat(d.getSpec().getSelector().getMatchLabels())
          .containsEntry("app.kubernetes.io/name", service)
          .containsEntry("app.kubernetes.io/instance", RELEASE);
      assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
          .containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
      assertThat(chart.get(ConfigMap.class, name).getData()).containsKey(service + ".yaml");
      assertThat(chart.get(ServiceAccount.class, name)).isNotNull();
      Service http = chart.get(Service.class, name);
      assertThat(http.getSpec().getSelector())
          .isEqualTo(d.getSpec().getSelector().getMatchLabels());
      assertThat(http.getSpec().getPorts())
          .extracting(ServicePort::getName)
          .containsExactly("http");

      Container c = container(d);
      assertThat(c.getName()).isEqualTo(service);
      assertThat(c.getImage()).isEqualTo("cairn/" + service + ":0.1.0-SNAPSHOT");
      assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
      assertThat(c.getLivenessProbe().getHttpGet().getPath())
          .isEqualTo("/actuator/health/liveness");
      assertThat(c.getReadinessProbe().getHttpGet().getPath())
          .isEqualTo("/actuator/health/readiness");
      assertThat(env(c, "SPRING_CONFIG_ADDITIONALLOCATION")).isEqualTo("optional:file:/etc/cairn/");
      assertThat(c.getVolumeMounts())
          .anyMatch(m -> m.getName().equals("config") && m.getMountPath().equals("/etc/cairn"));
      assertThat(d.getSpec().getTemplate().getSpec().getVolumes())
          .anyMatch(v -> v.getConfigMap() != null && v.getConfigMap().getName().equals(name));
      assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
      assertThat(c.getVolumeMounts()).anyMatch(m -> m.getMountPath().equals("/tmp"));
    }
  }

  @Test
  void servicesThatNeverCallTheApiServerGetNoTokenAndNoRbac() {
    RenderedChart chart = render();

    for (String service : List.of("health-prober", "strategy-engine")) {
      assertThat(
              chart
                  .deployment(service)
                  .getSpec()
                  .getTemplate()
                  .getSpec()
                  .getAutomountServiceAccountToken())
          .isFalse();
      assertThat(chart.all(ClusterRole.class))
          .noneMatch(r -> r.getMetadata().getName().endsWith(service));
    }
    for (String service : List.of("topology-watcher", "record-writer", "dns-responder")) {
      assertThat(
              chart
                  .deployment(service)
                  .getSpec()
                  .getTemplate()
                  .getSpec()
                  .getAutomountServiceAccountToken())
          .isTrue();
      ClusterRoleBinding binding = chart.get(ClusterRoleBinding.class, RELEASE + "-" + service);
      assertThat(binding.getRoleRef().getName()).isEqualTo(RELEASE + "-" + service);
      assertThat(binding.getSubjects().get(0).getName()).isEqualTo(RELEASE + "-" + service);
      assertThat(binding.getSubjects().get(0).getNamespace()).isEqualTo(NAMESPACE);
    }
  }

  @Test
  void theLeaderElectedServicesGetALeaseRoleAndTheirPodAsIdentity() {
    RenderedChart chart = render();

    for (String service : List.of("topology-watcher", "record-writer")) {
      Role role = chart.get(Role.class, RELEASE + "-" + service + "-leader-election");
      assertThat(role.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
      assertThat(role.getRules()).hasSize(1);
      assertThat(role.getRules().get(0).getResources()).containsExactly("leases");
      assertThat(chart.get(RoleBinding.class, role.getMetadata().getName()).getRoleRef().getName())
          .isEqualTo(role.getMetadata().getName());
      Container c = container(chart.deployment(service));
      String prefix = service.equals("topology-watcher") ? "WATCHER" : "WRITER";
      assertThat(env(c, prefix + "_LEADERELECTION_NAMESPACE")).isEqualTo("$(POD_NAMESPACE)");
      assertThat(env(c, prefix + "_LEADERELECTION_IDENTITY")).isEqualTo("$(POD_NAME)");
      assertThat(chart.deployment(service).getSpec().getReplicas()).isEqualTo(2);
    }
    assertThat(chart.all(Role.class)).hasSize(2);
  }

  @Test
  void eachReleaseElectsItsLeadersWithItsOwnLease() {
    Map<String, Object> values = minimalValues();
    RenderedChart cairn = render(values);
    RenderedChart other = RenderedChart.render(values, "staging");

    assertThat(cairn.settingsText("topology-watcher"))
        .as("release cairn keeps the service's default Lease name")
        .contains("lease-name: cairn-topology-watcher");
    assertThat(cairn.settingsText("record-writer")).contains("lease-name: cairn-record-writer");
    assertThat(other.settingsText("topology-watcher", "staging"))
        .contains("lease-name: staging-topology-watcher");
    assertThat(other.settingsText("record-writer", "staging"))
        .contains("lease-name: staging-record-writer");
  }

  private static List<String> verbs(ClusterRole role, String resource) {
    return role.getRules().stream()
        .filter(r -> r.getResources().contains(resource))
        .flatMap(r -> r.getVerbs().stream())
        .toList();
  }

  @Test
  void theWatcherReadsGatewaysAndEveryRouteKindOfTheGatewayApi() {
    ClusterRole watcher = render().get(ClusterRole.class, RELEASE + "-topology-watcher");

    // Gateway API Gateways and Istio Gateways: one rule each, both read only.
    assertThat(verbs(watcher, "gateways")).containsExactly("list", "watch", "list", "watch");
    assertThat(verbs(watcher, "httproutes")).containsExactly("list", "watch");
    for (String routes : List.of("grpcroutes", "tlsroutes", "tcproutes", "udproutes")) {
      assertThat(verbs(watcher, routes)).as(routes).containsExactly("list", "watch");
    }
    assertThat(watcher.getRules())
        .filteredOn(r -> r.getResources().contains("gateways"))
        .extracting(r -> r.getApiGroups())
        .containsExactlyInAnyOrder(
            List.of("gateway.networking.k8s.io"), List.of("networking.istio.io"));
    assertThat(verbs(watcher, "virtualservices")).containsExactly("list", "watch");
    assertThat(watcher.getRules())
        .filteredOn(r -> r.getResources().contains("virtualservices"))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getApiGroups()).containsExactly("networking.istio.io");
              assertThat(r.getResources()).containsExactly("virtualservices", "gateways");
            });
  }

  @Test
  void theWritersIngressAndGslbRulesFollowWhatItManages() {
    ClusterRole both = render().get(ClusterRole.class, RELEASE + "-record-writer");
    ClusterRole annotationsOnly =
        render(with("record-writer.config.writer.embedded-ingress.enabled", false))
            .get(ClusterRole.class, RELEASE + "-record-writer");
    ClusterRole neither =
        render(
                with(
                    "record-writer.config.writer.embedded-ingress.enabled", false,
                    "record-writer.config.writer.ingress-annotations.enabled", false))
            .get(ClusterRole.class, RELEASE + "-record-writer");

    assertThat(verbs(both, "ingresses"))
        .containsExactly("get", "list", "watch", "create", "update", "delete");
    assertThat(verbs(both, "gslbs")).containsExactly("get", "list", "watch", "create", "update");
    assertThat(verbs(annotationsOnly, "ingresses")).containsExactly("list", "watch");
    assertThat(verbs(annotationsOnly, "gslbs"))
        .containsExactly("get", "list", "watch", "create", "update");
    assertThat(verbs(neither, "ingresses")).isEmpty();
    assertThat(verbs(neither, "gslbs")).containsExactly("get", "list", "watch");
  }

  @Test
  void theWriterReadsTheResponderServiceOnlyWhenItsLoadBalancerIsTheGlue() {
    Map<String, Object> values = with("global.publishDelegation", true);
    values.put("global.dnsZones[0].parentZone", "example.com");

    Role role = render(values).get(Role.class, RELEASE + "-record-writer-delegation");
    assertThat(role.getRules().get(0).getResources()).containsExactly("services");
    assertThat(role.getRules().get(0).getVerbs()).containsExactly("get", "list", "watch");

    values.put("global.clusterExposedIPs[0]", "203.0.113.10");
    assertThat(render(values).all(Role.class))
        .noneMatch(r -> r.getMetadata().getName().endsWith("-delegation"));
    assertThat(render().all(Role.class))
        .noneMatch(r -> r.getMetadata().getName().endsWith("-delegation"));
  }

  @Test
  void publishingTheDelegationNeedsEachZonesParent() {
    assertThat(RenderedChart.failure(with("global.publishDelegation", true)))
        .contains("zone cloud.example.com needs parentZone, because global.publishDelegation");
  }

  @Test
  void theResponderIsReachableOnPort53OverUdpAndTcp() {
    RenderedChart chart =
        render(
            with(
                "dns-responder.dnsService.type", "LoadBalancer",
                "dns-responder.dnsService.externalTrafficPolicy", "Local"));

    Service dns = chart.get(Service.class, RELEASE + "-dns-responder-dns");
    assertThat(dns.getSpec().getType()).isEqualTo("LoadBalancer");
    assertThat(dns.getSpec().getExternalTrafficPolicy()).isEqualTo("Local");
    assertThat(dns.getSpec().getPorts())
        .extracting(p -> p.getProtocol() + " " + p.getPort() + " " + p.getTargetPort().getStrVal())
        .containsExactly("UDP 53 dns-udp", "TCP 53 dns-tcp");
    Container c = container(chart.deployment("dns-responder"));
    assertThat(c.getPorts())
        .extracting(p -> p.getName() + " " + p.getProtocol() + " " + p.getContainerPort())
        .contains("dns-udp UDP 5353", "dns-tcp TCP 5353");
    assertThat(chart.settings("dns-responder"))
        .extractingByKey("responder")
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsEntry("listen-address", "0.0.0.0")
        .containsEntry("port", 5353);
    PodDisruptionBudget pdb = chart.get(PodDisruptionBudget.class, RELEASE + "-dns-responder");
    assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
  }

  @Test
  void aSingleResponderGetsNoDisruptionBudget() {
    assertThat(render(with("dns-responder.replicaCount", 1)).all(PodDisruptionBudget.class))
        .isEmpty();
  }

  @Test
  void bundlesASingleNodeKafkaAndPointsEveryKafkaServiceAtIt() {
    RenderedChart chart = render();

    StatefulSet kafka = chart.get(StatefulSet.class, RELEASE + "-kafka");
    Container broker = kafka.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(broker.getImage()).isEqualTo("apache/kafka:4.1.1");
    assertThat(env(broker, "KAFKA_ADVERTISED_LISTENERS"))
        .isEqualTo("PLAINTEXT://" + RELEASE + "-kafka." + NAMESPACE + ".svc:9092");
    assertThat(org.apache.kafka.common.Uuid.fromString(env(broker, "CLUSTER_ID")).toString())
        .as("a canonical Kafka cluster id")
        .isEqualTo(env(broker, "CLUSTER_ID"));
    assertThat(env(broker, "CLUSTER_ID"))
        .as("stable across renders, so a persisted log still matches")
        .isEqualTo(
            env(
                render()
                    .get(StatefulSet.class, RELEASE + "-kafka")
                    .getSpec()
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .get(0),
                "CLUSTER_ID"));
    assertThat(chart.get(Service.class, RELEASE + "-kafka").getSpec().getPorts().get(0).getPort())
        .isEqualTo(9092);
    for (String service : SERVICES) {
      Object brokers = brokers(chart, service);
      if (service.equals("dns-responder")) {
        assertThat(brokers).as("the responder does not use Kafka").isNull();
      } else {
        assertThat(brokers).isEqualTo(RELEASE + "-kafka:9092");
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Object brokers(RenderedChart chart, String service) {
    Map<String, Object> spring = (Map<String, Object>) chart.settings(service).get("spring");
    return spring == null
        ? null
        : ((Map<String, Object>) spring.get("kafka")).get("bootstrap-servers");
  }

  @Test
  void anExternalKafkaReplacesTheBundledOne() {
    RenderedChart chart =
        render(
            with(
                "kafka.enabled",
                false,
                "global.kafka.bootstrapServers",
                "kafka-0.kafka:9092,kafka-1.kafka:9092"));

    assertThat(chart.all(StatefulSet.class)).isEmpty();
    assertThat(brokers(chart, "strategy-engine"))
        .isEqualTo("kafka-0.kafka:9092,kafka-1.kafka:9092");
  }

  @Test
  void persistentKafkaClaimsAVolume() {
    StatefulSet kafka =
        render(with("kafka.persistence.enabled", true, "kafka.persistence.size", "20Gi"))
            .get(StatefulSet.class, RELEASE + "-kafka");

    assertThat(kafka.getSpec().getVolumeClaimTemplates()).hasSize(1);
    assertThat(
            kafka.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests())
        .containsKey("storage");
    assertThat(kafka.getSpec().getTemplate().getSpec().getVolumes()).isNullOrEmpty();
  }

  @Test
  void aDisabledServiceRendersNothing() {
    RenderedChart chart = render(with("health-prober.enabled", false, "kafka.enabled", true));

    assertThat(chart.objects)
        .extracting(o -> o.getMetadata().getName())
        .noneMatch(n -> n.contains("health-prober"));
    assertThat(chart.all(Deployment.class)).hasSize(4);
  }

  @Test
  void theImageFollowsTheRegistryAndTagSettings() {
    RenderedChart chart =
        render(
            with(
                "global.image.registry", "ghcr.io/acme/",
                "global.image.tag", "1.2.3",
                "record-writer.image.tag", "1.2.4"));

    assertThat(container(chart.deployment("strategy-engine")).getImage())
        .isEqualTo("ghcr.io/acme/cairn/strategy-engine:1.2.3");
    assertThat(container(chart.deployment("record-writer")).getImage())
        .isEqualTo("ghcr.io/acme/cairn/record-writer:1.2.4");
  }

  @Test
  void aConfigChangeRollsOnlyTheServiceWhosePodsReadIt() {
    RenderedChart before = render();
    RenderedChart after = render(with("record-writer.config.writer.grace-period", "2m"));

    assertThat(checksum(after, "record-writer")).isNotEqualTo(checksum(before, "record-writer"));
    assertThat(checksum(after, "strategy-engine")).isEqualTo(checksum(before, "strategy-engine"));
    assertThat(after.settingsText("record-writer")).contains("grace-period: 2m");
  }

  private static String checksum(RenderedChart chart, String service) {
    return chart
        .deployment(service)
        .getSpec()
        .getTemplate()
        .getMetadata()
        .getAnnotations()
        .get("checksum/config");
  }

  @Test
  void serviceMonitorsScrapeThePrometheusEndpointWhenAskedFor() {
    assertThat(render().generic("ServiceMonitor")).isEmpty();

    RenderedChart chart =
        render(
            with(
                "global.serviceMonitor.enabled",
                true,
                "global.serviceMonitor.labels.release",
                "prom"));
    assertThat(chart.generic("ServiceMonitor")).hasSize(5);
    Map<String, Object> spec = chart.generic("ServiceMonitor").get(0).get("spec");
    assertThat(spec.toString()).contains("path=/actuator/prometheus", "port=http");
    assertThat(chart.generic("ServiceMonitor").get(0).getMetadata().getLabels())
        .containsEntry("release", "prom");
  }

  @Test
  void everyObjectIsLabelledAsPartOfCairn() {
    for (HasMetadata o : render().objects) {
      assertThat(o.getMetadata().getLabels())
          .as("%s %s", o.getKind(), o.getMetadata().getName())
          .containsEntry("app.kubernetes.io/part-of", "cairn")
          .containsEntry("app.kubernetes.io/instance", RELEASE);
    }
  }

  @Test
  void theChartShipsTheSeedsCrdsVerbatim() throws IOException {
    Path shipped = Path.of("cairn", "crds");
    Path verbatim = Path.of("..", "record-writer", "src", "main", "resources", "crds");
    for (String crd : List.of("k8gb.io_gslbs.yaml", "dnsendpoints.externaldns.k8s.io.yaml")) {
      assertThat(Files.readString(shipped.resolve(crd)))
          .as(crd)
          .isEqualTo(Files.readString(verbatim.resolve(crd)));
    }
    try (var files = Files.list(shipped)) {
      assertThat(files.map(p -> p.getFileName().toString()).collect(Collectors.toSet()))
          .containsExactlyInAnyOrder("k8gb.io_gslbs.yaml", "dnsendpoints.externaldns.k8s.io.yaml");
    }
  }

  // ---- values that are refused, each with a message that names the value ----

  @Test
  void theGeoTagIsRequired() {
    Map<String, Object> values = minimalValues();
    values.remove("global.clusterGeoTag");

    assertThat(RenderedChart.failure(values))
        .contains("global.clusterGeoTag is required")
        .contains("--set global.clusterGeoTag=eu");
  }

  @Test
  void theResponderNeedsAZone() {
    Map<String, Object> values = minimalValues();
    values.remove("global.dnsZones[0].loadBalancedZone");

    assertThat(RenderedChart.failure(values)).contains("global.dnsZones needs at least one");
    assertThat(render(with("dns-responder.enabled", false)).all(Deployment.class)).hasSize(4);
  }

  @Test
  void withoutTheBundledKafkaTheBrokersAreRequired() {
    assertThat(RenderedChart.failure(with("kafka.enabled", false)))
        .contains("global.kafka.bootstrapServers is required when kafka.enabled=false");
  }

  @Test
  void zoneDelegationNeedsTheParentZone() {
    assertThat(RenderedChart.failure(with("global.edgeDNSServers[0]", "192.0.2.53")))
        .contains("zone cloud.example.com needs parentZone");
  }

  @Test
  void aPeerIsListedOnce() {
    assertThat(
            RenderedChart.failure(
                with(
                    "global.peers[0].geoTag", "us",
                    "global.peers[0].servers[0]", "198.51.100.53",
                    "global.peers[1].geoTag", "us",
                    "global.peers[1].servers[0]", "198.51.100.54")))
        .contains("global.peers: geoTag us appears twice");
    assertThat(
            RenderedChart.failure(
                with(
                    "global.peers[0].geoTag", "eu", "global.peers[0].servers[0]", "198.51.100.53")))
        .contains("geoTag eu appears twice or is this cluster's own");
  }

  @ParameterizedTest(name = "{0}={1} is refused at {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "global.clusterGeoTag               | eu_west          | global.clusterGeoTag",
        "global.dnsZones[0].loadBalancedZone | cloud..example  | global.dnsZones.0.loadBalancedZone",
        "global.peers[0].geoTag              | us               | global.peers.0: servers is required",
        "global.clusterExposedIPs[0]         | 010.0.0.1        | global.clusterExposedIPs.0",
        "global.clusterExposedIPs[0]         | lb.example.com   | global.clusterExposedIPs.0",
        "global.edgeDNSServers[0]            | ns.example.com   | global.edgeDNSServers.0",
        "global.dnsResolver                  | dns.example.com  | global.dnsResolver",
        "global.dnsResolver                  | cafe:53          | global.dnsResolver",
        "global.edgeDNSServers[0]            | dead:53          | global.edgeDNSServers.0",
        "global.splitBrainThresholdSeconds   | 0                | global.splitBrainThresholdSeconds",
        "global.topics.prefix                | eu/              | global.topics.prefix",
        "global.topics.partitions            | 0                | global.topics.partitions",
        "global.logLevel                     | verbose          | global.logLevel",
        "global.logFormat                    | json             | global.logFormat",
        "global.geoTag                       | eu               | Additional property geoTag is not allowed",
        "record-writer.replicas              | 3                | record-writer: Additional property replicas",
        "dns-responder.dnsService.type       | External         | dns-responder.dnsService.type",
      })
  void badValuesAreRefusedNamingTheField(String key, String value, String expected) {
    Object typed = value.matches("\\d+") ? Integer.valueOf(value) : value;

    assertThat(RenderedChart.failure(with(key, typed))).contains(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "198.51.100.53",
        "198.51.100.53:5353",
        "198.51.100.53:65535",
        "2001:db8::53",
        "[2001:db8::53]:5353",
        "[2001:db8::53]:1"
      })
  void peerServersAreIpLiteralsWithAnOptionalPort(String server) {
    assertThat(
            render(with("global.peers[0].geoTag", "us", "global.peers[0].servers[0]", server))
                .settingsText("health-prober"))
        .contains(server);
  }

  /**
   * A server's port outside 1..65535: the prober (ServerAddress) and the engine refuse it at start,
   * so the pod would crash-loop after an install that went through; it is refused at install.
   */
  @ParameterizedTest(name = "{0}={1} is refused at {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "global.peers[0].servers[0] | 198.51.100.53:0      | global.peers.0.servers.0",
        "global.peers[0].servers[0] | 198.51.100.53:65536  | global.peers.0.servers.0",
        "global.peers[0].servers[0] | [2001:db8::53]:99999 | global.peers.0.servers.0",
        "global.edgeDNSServers[0]   | 192.0.2.53:0         | global.edgeDNSServers.0",
        "global.edgeDNSServers[0]   | 192.0.2.53:70000     | global.edgeDNSServers.0",
        "global.dnsResolver         | 10.0.0.2:70000       | global.dnsResolver",
      })
  void aServerPortOutside1To65535IsRefused(String key, String value, String expected) {
    Map<String, Object> values =
        with(
            "global.dnsZones[0].parentZone", "example.com",
            "global.peers[0].geoTag", "us",
            "global.peers[0].servers[0]", "198.51.100.53");
    values.put(key, value);

    assertThat(RenderedChart.failure(values)).contains(expected);
  }

  /**
   * A parentZone that is not a parent of its load-balanced zone: the prober and the writer refuse
   * it at start (DelegationZone), and the responder would name apex name servers no parent
   * delegates to. It is refused at install, naming the zone.
   */
  @ParameterizedTest(name = "{0} under {1} is refused")
  @CsvSource(
      delimiter = '|',
      value = {
        "cloud.example.com | example.org",
        "example.com       | example.com",
        "cloud.example.com | loud.example.com",
      })
  void aParentZoneMustBeAParentOfItsZone(String zone, String parent) {
    Map<String, Object> values =
        with("global.dnsZones[0].loadBalancedZone", zone, "global.dnsZones[0].parentZone", parent);

    assertThat(RenderedChart.failure(values))
        .contains("global.dnsZones[0]")
        .contains(zone + " must lie below its parentZone " + parent);
  }

  /**
   * Helm takes release names of up to 53 characters. Every Service name must still be a DNS label
   * (at most 63 characters, or the API server refuses the Service), and a StatefulSet's name at
   * most 52 (its pods carry the label controller-revision-hash: <name>-<hash of up to 10
   * characters>). The names the objects and the notes refer to are the names rendered.
   */
  @Test
  void theLongestReleaseNameStillGivesValidNamesThatReferToEachOther() {
    String release = "cairn-production-europe-west-global-traffic-steering1";
    assertThat(release).hasSize(53);
    Map<String, Object> values = with("global.publishDelegation", true);
    values.put("global.dnsZones[0].parentZone", "example.com");
    RenderedChart chart = RenderedChart.render(values, release);

    for (Service s : chart.all(Service.class)) {
      assertThat(s.getMetadata().getName())
          .as("Service name")
          .hasSizeLessThanOrEqualTo(63)
          .matches("[a-z]([-a-z0-9]*[a-z0-9])?");
    }
    StatefulSet kafka = chart.all(StatefulSet.class).get(0);
    assertThat(kafka.getMetadata().getName()).hasSizeLessThanOrEqualTo(52);
    assertThat(chart.get(Service.class, kafka.getSpec().getServiceName())).isNotNull();

    Service dns =
        chart.all(Service.class).stream()
            .filter(s -> s.getSpec().getPorts().get(0).getName().equals("dns-udp"))
            .findFirst()
            .orElseThrow();
    String writerSettings =
        chart.all(ConfigMap.class).stream()
            .map(c -> c.getData().get("record-writer.yaml"))
            .filter(java.util.Objects::nonNull)
            .findFirst()
            .orElseThrow();
    assertThat(writerSettings)
        .contains("service: " + NAMESPACE + "/" + dns.getMetadata().getName());
    assertThat(RenderedChart.notes(values, release))
        .contains("get svc " + dns.getMetadata().getName() + "\n");
  }

  /**
   * The install notes' next steps, run as written: each port-forward names a Service the release
   * has and its port (after a fullnameOverride and a service.port too), and nothing is chained
   * after it with {@code &&}: a port-forward runs until it is stopped, so the command after it
   * never ran.
   */
  @Test
  void theNotesNextStepsNameTheRenderedServicesAndCanBeRunAsWritten() {
    Map<String, Object> values =
        with("record-writer.service.port", 80, "dns-responder.fullnameOverride", "edge-dns");
    RenderedChart chart = render(values);
    String notes = RenderedChart.notes(values);

    Matcher forward = Pattern.compile("port-forward svc/(\\S+) (\\S+)(.*)").matcher(notes);
    int found = 0;
    while (forward.find()) {
      found++;
      Service service = chart.get(Service.class, forward.group(1));
      assertThat(forward.group(2))
          .as("local:remote port of %s", forward.group(1))
          .isEqualTo("8080:" + service.getSpec().getPorts().get(0).getPort());
      assertThat(forward.group(3)).as("chained after the port-forward").doesNotContain("&&");
    }
    assertThat(found).isEqualTo(SERVICES.size());
    Matcher dns = Pattern.compile("get svc (\\S+)").matcher(notes);
    assertThat(dns.find()).isTrue();
    assertThat(chart.get(Service.class, dns.group(1)).getSpec().getPorts())
        .extracting(ServicePort::getName)
        .contains("dns-udp", "dns-tcp");
  }

  /**
   * A release whose name holds "dns-responder" names the responder after the release alone; the
   * writer's delegation and the install notes follow it.
   */
  @Test
  void theWriterFindsTheResponderServiceWhateverTheReleaseIsCalled() {
    Map<String, Object> values = with("global.publishDelegation", true);
    values.put("global.dnsZones[0].parentZone", "example.com");
    RenderedChart chart = RenderedChart.render(values, "edge-dns-responder");

    assertThat(chart.get(Service.class, "edge-dns-responder-dns")).isNotNull();
    assertThat(chart.settingsText("record-writer", "edge-dns-responder"))
        .contains("service: cairn-system/edge-dns-responder-dns");
  }

  /** A GeoIP database for the responder: a volume of the user's, mounted where the setting says. */
  @Test
  void extraVolumesAreMountedIntoTheService() {
    Map<String, Object> values =
        with(
            "dns-responder.extraVolumes[0].name", "geoip",
            "dns-responder.extraVolumes[0].configMap.name", "geoip-db",
            "dns-responder.extraVolumeMounts[0].name", "geoip",
            "dns-responder.extraVolumeMounts[0].mountPath", "/etc/geoip",
            "dns-responder.extraVolumeMounts[0].readOnly", true,
            "dns-responder.config.responder.geoip.database", "/etc/geoip/GeoLite2-City.mmdb");
    Deployment responder = render(values).deployment("dns-responder");

    assertThat(responder.getSpec().getTemplate().getSpec().getVolumes())
        .anySatisfy(
            v -> {
              assertThat(v.getName()).isEqualTo("geoip");
              assertThat(v.getConfigMap().getName()).isEqualTo("geoip-db");
            });
    assertThat(container(responder).getVolumeMounts())
        .anySatisfy(
            m -> {
              assertThat(m.getMountPath()).isEqualTo("/etc/geoip");
              assertThat(m.getReadOnly()).isTrue();
            });
    assertThat(RenderedChart.failure(with("dns-responder.extraVolumeMounts[0].name", "geoip")))
        .contains("mountPath");
  }

  @Test
  void aBadDocumentFailsTheReadingNotSilently() {
    assertThatThrownBy(
            () ->
                RenderedChart.unknownFields(
                        io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                            "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"x\"},"
                                + "\"spec\":{\"prots\":[]}}",
                            HasMetadata.class))
                    .forEach(
                        f -> {
                          throw new AssertionError(f);
                        }))
        .hasMessageContaining("spec.prots");
  }
}
