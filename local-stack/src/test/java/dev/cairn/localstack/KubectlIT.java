package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl against the local stack's mock API, the way the stack's banner suggests using
 * it: what a user types must work as on a cluster.
 */
class KubectlIT {

  private static final String NS = "apps";
  private static final ResourceDefinitionContext GSLBS = SampleTopology.GSLB_CONTEXT;

  private MockKubernetesApi api;
  private KubernetesClient client;
  private InteropTool kubectl;

  @BeforeEach
  void start() {
    kubectl = InteropTool.findOrSkip("kubectl", "kubernetes-client");
    api = MockKubernetesApi.start(0, new IndexedCrudDispatcher(8, Duration.ZERO));
    client = api.client();
  }

  @AfterEach
  void stop() {
    if (api != null) {
      api.close();
    }
  }

  private List<String> kubectl(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "--server";
    all[1] = api.url();
    System.arraycopy(args, 0, all, 2, args.length);
    return kubectl.run(all);
  }

  private void gslb(String name, String strategy) {
    GenericKubernetesResource g = new GenericKubernetesResource();
    g.setApiVersion("k8gb.io/v1beta1");
    g.setKind("Gslb");
    g.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withNamespace(NS)
            .withName(name)
            .build());
    g.setAdditionalProperty(
        "spec",
        Map.of(
            "resourceRef",
            Map.of("apiVersion", "gateway.networking.k8s.io/v1", "kind", "HTTPRoute", "name", name),
            "strategy",
            Map.of("type", strategy, "dnsTtlSeconds", 30)));
    client.genericKubernetesResources(GSLBS).inNamespace(NS).resource(g).create();
  }

  private void warning(String regarding, String uid, String reason, String note) {
    client
        .events()
        .v1()
        .events()
        .inNamespace(NS)
        .resource(
            new EventBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(regarding + "." + reason.toLowerCase(java.util.Locale.ROOT))
                .endMetadata()
                .withNewRegarding()
                .withApiVersion("k8gb.io/v1beta1")
                .withKind("Gslb")
                .withNamespace(NS)
                .withName(regarding)
                .withUid(uid)
                .endRegarding()
                .withType("Warning")
                .withReason(reason)
                .withNote(note)
                .withAction("Decide")
                .withReportingController("cairn.dev/record-writer")
                .withReportingInstance("writer-0")
                .withNewEventTime("2026-11-30T21:44:03.000000Z")
                .build())
        .create();
  }

  /** kubectl describe finds an object's Events with a typed client, which needs an EventList. */
  @Test
  void describeShowsTheEventsCairnRecordsOnAGslb() {
    gslb("shop", "roundRobin");
    String uid =
        client
            .genericKubernetesResources(GSLBS)
            .inNamespace(NS)
            .withName("shop")
            .get()
            .getMetadata()
            .getUid();
    warning("shop", uid, "RecordConflict", "DNSEndpoint apps/shop leaves out 2 names");

    String described = String.join("\n", kubectl("describe", "gslb", "shop", "-n", NS));

    assertThat(described)
        .contains("Events:")
        .contains("RecordConflict")
        .contains("DNSEndpoint apps/shop leaves out 2 names")
        .doesNotContain("Events:  <none>")
        .doesNotContain("Events:                     <none>");
  }

  @Test
  void getEventsListsThemInEveryNamespace() {
    gslb("shop", "roundRobin");
    warning("shop", "u-1", "InvalidSpec", "Gslb apps/shop: spec.strategy.type='random'");

    assertThat(kubectl("get", "events", "-A", "-o", "name"))
        .containsExactly("event/shop.invalidspec");
    assertThat(kubectl("get", "events.events.k8s.io", "-n", NS, "-o", "name"))
        .containsExactly("event.events.k8s.io/shop.invalidspec");
  }

  /** The API server prints custom resources with their CRD's columns; kubectl shows them. */
  @Test
  void getPrintsTheGslbCrdsColumns() {
    gslb("shop", "roundRobin");
    gslb("app", "failover");

    List<String> lines = kubectl("get", "gslbs", "-n", NS);
    List<String> wide = kubectl("get", "gslbs", "-A", "-o", "wide");
    List<String> one = kubectl("get", "gslb", "app", "-n", NS);

    assertThat(lines.get(0)).containsPattern("^NAME +STRATEGY +GEOTAG\\s*$");
    assertThat(lines.subList(1, lines.size()))
        .satisfiesExactly(
            l -> assertThat(l).startsWith("app ").contains("failover"),
            l -> assertThat(l).startsWith("shop ").contains("roundRobin"));
    assertThat(wide.get(0)).containsPattern("^NAMESPACE +NAME +STRATEGY +GEOTAG +HOSTS\\s*$");
    assertThat(wide.get(1)).startsWith("apps ");
    assertThat(one).hasSize(2);
    assertThat(one.get(1)).startsWith("app ").contains("failover");
    GenericKubernetesResource record = new GenericKubernetesResource();
    record.setApiVersion("externaldns.k8s.io/v1alpha1");
    record.setKind("DNSEndpoint");
    record.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withNamespace(NS)
            .withName("shop")
            .build());
    record.setAdditionalProperty("spec", Map.of("endpoints", List.of()));
    client.resource(record).create();
    List<String> records = kubectl("get", "dnsendpoints", "-n", NS);
    assertThat(records.get(0))
        .as("a CRD without printer columns shows its age")
        .containsPattern("^NAME +AGE\\s*$");
    assertThat(records.get(1)).matches("^shop +\\d+s\\s*$");
  }

  @Test
  void getPrintsAnHttpRoutesHostnamesAsOnACluster() {
    GenericKubernetesResource route = new GenericKubernetesResource();
    route.setApiVersion("gateway.networking.k8s.io/v1");
    route.setKind("HTTPRoute");
    route.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withNamespace(NS)
            .withName("web")
            .build());
    route.setAdditionalProperty("spec", Map.of("hostnames", List.of("web.example.com")));
    client.resource(route).create();

    List<String> lines = kubectl("get", "httproutes", "-n", NS);

    assertThat(lines.get(0)).containsPattern("^NAME +HOSTNAMES +AGE\\s*$");
    assertThat(lines.get(1)).matches("^web +\\[\"web.example.com\"\\] +\\d+s\\s*$");
  }

  @Test
  void getEventsPrintsTypeReasonObjectAndMessage() {
    warning("shop", "u-1", "InvalidSpec", "Gslb apps/shop: spec.strategy.type='random'");

    List<String> lines = kubectl("get", "events", "-n", NS);

    assertThat(lines.get(0)).containsPattern("^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE\\s*$");
    assertThat(lines.get(1))
        .contains("Warning")
        .contains("InvalidSpec")
        .contains("gslb/shop")
        .contains("Gslb apps/shop: spec.strategy.type='random'");
  }

  private InteropTool.Result apply(String yaml, String... flags) {
    List<String> args =
        new java.util.ArrayList<>(List.of("--server", api.url(), "apply", "-f", "-"));
    args.addAll(List.of(flags));
    return kubectl.attempt(yaml, args.toArray(String[]::new));
  }

  private static String gslbYaml(String name, String strategyLines) {
    return """
        apiVersion: k8gb.io/v1beta1
        kind: Gslb
        metadata:
          name: %s
          namespace: apps
        spec:
          resourceRef:
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            name: %s
          strategy:
        %s
        """
        .formatted(name, name, strategyLines.indent(4).stripTrailing());
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> strategyOf(String name) {
    GenericKubernetesResource g =
        client.genericKubernetesResources(GSLBS).inNamespace(NS).withName(name).get();
    Map<String, Object> spec = (Map<String, Object>) g.getAdditionalProperties().get("spec");
    return (Map<String, Object>) spec.get("strategy");
  }

  private static String serviceYaml(String label, String ports) {
    return """
        apiVersion: v1
        kind: Service
        metadata:
          name: web
          namespace: apps
          labels:
            tier: %s
        spec:
          ports:
        %s
        """
        .formatted(label, ports.indent(4).stripTrailing());
  }

  /**
   * kubectl apply and kubectl patch send strategic merge patches for built-in kinds; the mock
   * applies them as a cluster would for what they carry (fabric8's handler refused them, which
   * kubectl showed as "The Unknown \"\" is invalid").
   */
  @Test
  void applyAndPatchChangeABuiltInKind() {
    InteropTool.Result created =
        apply(serviceYaml("front", "- {name: http, port: 80}\n- {name: https, port: 443}"));
    InteropTool.Result changed = apply(serviceYaml("edge", "- {name: http, port: 8080}"));
    InteropTool.Result patched =
        kubectl.attempt(
            "",
            "--server",
            api.url(),
            "patch",
            "service",
            "web",
            "-n",
            NS,
            "-p",
            "{\"metadata\":{\"labels\":{\"team\":\"dns\"}}}");

    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(changed.exitCode()).as(changed.err()).isZero();
    assertThat(changed.out()).contains("service/web configured");
    assertThat(patched.exitCode()).as(patched.err()).isZero();
    Service web = client.services().inNamespace(NS).withName("web").get();
    assertThat(web.getSpec().getPorts())
        .extracting(p -> p.getName() + ":" + p.getPort())
        .containsExactly("http:8080");
    assertThat(web.getMetadata().getLabels())
        .containsEntry("tier", "edge")
        .containsEntry("team", "dns");
  }

  /** A new cluster has its namespaces: {@code kubectl get ns} lists them as on a cluster. */
  @Test
  void aNewClusterHasTheNamespacesOfACluster() {
    List<String> namespaces = kubectl("get", "ns");

    assertThat(namespaces.get(0)).containsPattern("NAME +STATUS +AGE");
    assertThat(namespaces.subList(1, namespaces.size()))
        .extracting(l -> l.split(" +")[0] + " " + l.split(" +")[1])
        .containsExactly(
            "default Active", "kube-node-lease Active", "kube-public Active", "kube-system Active");
    assertThat(kubectl("get", "ns", "default", "-o", "name")).containsExactly("namespace/default");
    assertThat(client.namespaces().withName("kube-system").get().getMetadata().getLabels())
        .containsEntry("kubernetes.io/metadata.name", "kube-system");
  }

  /**
   * kubectl's generators send built-in kinds as protobuf (and do not retry with JSON on a 415): the
   * mock reads them.
   */
  @Test
  void kubectlCreateSendsProtobufAndTheMockReadsIt() {
    assertThat(kubectl("create", "ns", "aaa-ns")).containsExactly("namespace/aaa-ns created");
    kubectl("create", "configmap", "settings", "-n", NS, "--from-literal=mode=fast");
    kubectl("create", "service", "clusterip", "front", "-n", NS, "--tcp=80:8080");
    kubectl(
        "create",
        "ingress",
        "pay",
        "-n",
        NS,
        "--class=nginx",
        "--rule=pay.cloud.example.com/*=front:80");

    assertThat(kubectl("get", "ns", "aaa-ns", "-o", "name")).containsExactly("namespace/aaa-ns");
    assertThat(client.configMaps().inNamespace(NS).withName("settings").get().getData())
        .containsExactly(Map.entry("mode", "fast"));
    Service front = client.services().inNamespace(NS).withName("front").get();
    assertThat(front.getSpec().getPorts())
        .extracting(p -> p.getPort() + ":" + p.getTargetPort().getIntVal())
        .containsExactly("80:8080");
    assertThat(front.getSpec().getSelector()).containsEntry("app", "front");
    assertThat(
            client
                .network()
                .v1()
                .ingresses()
                .inNamespace(NS)
                .withName("pay")
                .get()
                .getSpec()
                .getRules()
                .get(0)
                .getHttp()
                .getPaths()
                .get(0)
                .getBackend()
                .getService()
                .getName())
        .isEqualTo("front");

    InteropTool.Result deployment =
        kubectl.attempt(
            "", "--server", api.url(), "create", "deployment", "web", "-n", NS, "--image=nginx");
    assertThat(deployment.exitCode()).isNotZero();
    assertThat(deployment.err())
        .contains("protobuf bodies of Namespace, ConfigMap, Service and Ingress only")
        .contains("kubectl create -f");
  }

  /** The short names a cluster serves work: {@code kubectl get svc}, {@code no}, {@code ing}. */
  @Test
  void shortNamesWorkAsOnACluster() {
    client
        .services()
        .inNamespace(NS)
        .resource(
            new io.fabric8.kubernetes.api.model.ServiceBuilder()
                .withNewMetadata()
                .withName("short")
                .withNamespace(NS)
                .endMetadata()
                .build())
        .create();

    assertThat(kubectl("get", "svc", "-n", NS, "-o", "name")).contains("service/short");
    // Each fails (and kubectl exits non-zero) when discovery does not know the short name.
    kubectl("get", "no");
    kubectl("get", "ing", "-A");
    kubectl("get", "cm", "-n", NS);
    assertThat(String.join("\n", kubectl("api-resources")))
        .containsPattern("services +svc +v1 +true +Service")
        .containsPattern("ingresses +ing +networking.k8s.io/v1 +true +Ingress");
  }

  /** Built-in kinds print the API server's columns: an Ingress's class, hosts and address. */
  @Test
  void getPrintsTheColumnsOfBuiltInKinds() {
    client
        .network()
        .v1()
        .ingresses()
        .inNamespace(NS)
        .resource(
            new io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder()
                .withNewMetadata()
                .withName("store")
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withIngressClassName("nginx")
                .addNewRule()
                .withHost("store.cloud.example.com")
                .endRule()
                .endSpec()
                .withNewStatus()
                .withNewLoadBalancer()
                .addNewIngress()
                .withIp("203.0.113.77")
                .endIngress()
                .endLoadBalancer()
                .endStatus()
                .build())
        .create();
    client
        .services()
        .inNamespace(NS)
        .resource(
            new io.fabric8.kubernetes.api.model.ServiceBuilder()
                .withNewMetadata()
                .withName("lb")
                .withNamespace(NS)
                .endMetadata()
                .withNewSpec()
                .withType("LoadBalancer")
                .withClusterIP("10.96.0.10")
                .addNewPort()
                .withPort(80)
                .withProtocol("TCP")
                .endPort()
                .endSpec()
                .build())
        .create();

    List<String> ingresses = kubectl("get", "ing", "-n", NS);
    List<String> services = kubectl("get", "svc", "lb", "-n", NS);

    assertThat(ingresses.get(0)).containsPattern("NAME +CLASS +HOSTS +ADDRESS +PORTS +AGE");
    assertThat(ingresses.get(1))
        .containsPattern("store +nginx +store.cloud.example.com +203.0.113.77 +80 +");
    assertThat(services.get(0)).containsPattern("NAME +TYPE +CLUSTER-IP +EXTERNAL-IP +PORT\\(S\\)");
    assertThat(services.get(1)).containsPattern("lb +LoadBalancer +10.96.0.10 +<pending> +80/TCP");
  }

  /**
   * kubectl apply validates on the server (it reads the OpenAPI documents to learn that it may): a
   * valid Gslb is created and then changed, as on a cluster.
   */
  @Test
  void applyCreatesAndChangesAGslb() {
    InteropTool.Result created = apply(gslbYaml("web", "type: roundRobin\ndnsTtlSeconds: 30"));
    InteropTool.Result changed =
        apply(gslbYaml("web", "type: failover\nprimaryGeoTag: eu\ndnsTtlSeconds: 30"));

    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out()).contains("gslb.k8gb.io/web created");
    assertThat(changed.exitCode()).as(changed.err()).isZero();
    assertThat(changed.out()).contains("gslb.k8gb.io/web configured");
    assertThat(strategyOf("web"))
        .containsEntry("type", "failover")
        .containsEntry("primaryGeoTag", "eu");
  }

  /**
   * A status written through its subresource, as a user fakes a controller (an Ingress's or a
   * Gateway's load balancer, a Gslb's status): kubectl's query parameters used to hide the {@code
   * /status} path from the store, which then answered 200 and kept the old status.
   */
  @Test
  void aPatchOfTheStatusSubresourceChangesTheStatus() {
    gslb("web", "roundRobin");

    List<String> patched =
        kubectl(
            "-n",
            NS,
            "patch",
            "gslb",
            "web",
            "--subresource=status",
            "--type=merge",
            "-p",
            "{\"status\":{\"hosts\":\"web.cloud.example.com\"}}");
    List<String> after = kubectl("-n", NS, "get", "gslb", "web", "-o", "jsonpath={.status.hosts}");

    assertThat(String.join("\n", patched))
        .contains("gslb.k8gb.io/web patched")
        .doesNotContain("no change");
    assertThat(after).containsExactly("web.cloud.example.com");
    assertThat(kubectl("-n", NS, "get", "gslb", "web", "-o", "jsonpath={.spec.strategy.type}"))
        .as("the spec is not touched by a status write")
        .containsExactly("roundRobin");
  }

  /**
   * A misspelt field: refused by default (Strict), on a new object (POST) and on a change (the
   * merge patch kubectl apply sends); dropped with a warning, or silently, when kubectl asks.
   */
  @Test
  void anUnknownFieldIsRefusedOrDroppedAsKubectlAsks() {
    String valid = gslbYaml("typo", "type: failover\nprimaryGeoTag: eu");
    String typo = gslbYaml("typo", "type: failover\nprimaryGeotag: eu");
    assertThat(apply(valid).exitCode()).isZero();

    InteropTool.Result strictChange = apply(typo);
    InteropTool.Result strictNew = apply(typo.replace("name: typo", "name: other"));

    assertThat(strictChange.exitCode()).as(strictChange.out()).isNotZero();
    assertThat(strictChange.err())
        .contains("strict decoding error")
        .contains("unknown field \"spec.strategy.primaryGeotag\"");
    assertThat(strategyOf("typo")).containsEntry("primaryGeoTag", "eu");
    assertThat(strictNew.exitCode()).as(strictNew.out()).isNotZero();
    assertThat(strictNew.err()).contains("unknown field \"spec.strategy.primaryGeotag\"");
    assertThat(client.genericKubernetesResources(GSLBS).inNamespace(NS).withName("other").get())
        .isNull();

    InteropTool.Result warn = apply(typo, "--validate=warn");
    assertThat(warn.exitCode()).as(warn.err()).isZero();
    assertThat(warn.err()).contains("unknown field \"spec.strategy.primaryGeotag\"");
    assertThat(strategyOf("typo")).containsOnlyKeys("type");

    InteropTool.Result ignored =
        apply(gslbYaml("quiet", "type: roundRobin\nextra: 1"), "--validate=false");
    assertThat(ignored.exitCode()).as(ignored.err()).isZero();
    assertThat(ignored.err()).doesNotContain("unknown field");
    assertThat(strategyOf("quiet")).containsOnlyKeys("type");
  }

  /**
   * {@code kubectl --dry-run=server} (the API's {@code ?dryRun=All}): validated and answered as the
   * write would be, but nothing is stored, changed or deleted; the mock API used to store it.
   */
  @Test
  void aServerSideDryRunValidatesAndStoresNothing() {
    InteropTool.Result created =
        apply(gslbYaml("dry", "type: roundRobin\ndnsTtlSeconds: 30"), "--dry-run=server");
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out()).contains("gslb.k8gb.io/dry created (server dry run)");
    assertThat(client.genericKubernetesResources(GSLBS).inNamespace(NS).withName("dry").get())
        .isNull();

    InteropTool.Result invalid =
        apply(gslbYaml("dry", "type: roundRobin\ndnsTtlSeconds: thirty"), "--dry-run=server");
    assertThat(invalid.exitCode()).isNotZero();
    assertThat(invalid.err()).contains("spec.strategy.dnsTtlSeconds");

    gslb("web", "roundRobin");
    InteropTool.Result changed =
        apply(gslbYaml("web", "type: failover\nprimaryGeoTag: eu"), "--dry-run=server");
    assertThat(changed.exitCode()).as(changed.err()).isZero();
    assertThat(changed.out()).contains("gslb.k8gb.io/web configured (server dry run)");
    assertThat(strategyOf("web")).containsEntry("type", "roundRobin");

    List<String> deleted = kubectl("-n", NS, "delete", "gslb", "web", "--dry-run=server");
    assertThat(String.join("\n", deleted))
        .contains("gslb.k8gb.io \"web\" deleted (server dry run)");
    assertThat(strategyOf("web")).containsEntry("type", "roundRobin");

    String refused =
        String.join(
            "\n",
            kubectl
                .attempt(
                    null,
                    "--server",
                    api.url(),
                    "delete",
                    "--raw",
                    "/apis/k8gb.io/v1beta1/namespaces/apps/gslbs/web?dryRun=Some")
                .err());
    assertThat(refused).contains("Unsupported value: \"Some\"");
    assertThat(strategyOf("web")).containsEntry("type", "roundRobin");
  }

  @Test
  void aValueTheSchemaRefusesIsInvalid() {
    InteropTool.Result result = apply(gslbYaml("ttl", "type: roundRobin\ndnsTtlSeconds: thirty"));

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.err())
        .contains("Gslb \"ttl\" is invalid")
        .contains("spec.strategy.dnsTtlSeconds");
    assertThat(client.genericKubernetesResources(GSLBS).inNamespace(NS).withName("ttl").get())
        .isNull();
  }

  @Test
  void explainDescribesTheGslbSchema() {
    String explained = String.join("\n", kubectl("explain", "gslb.spec.strategy"));

    assertThat(explained)
        .contains("GROUP:      k8gb.io")
        .contains("KIND:       Gslb")
        .contains("primaryGeoTag")
        .contains("dnsTtlSeconds");
  }

  @Test
  void aStreamedWatchIsRefusedWithAReason() {
    gslb("shop", "roundRobin");

    InteropTool.Result watched =
        kubectl.attempt(
            null,
            "--server",
            api.url(),
            "get",
            "gslbs",
            "-n",
            NS,
            "--watch",
            "--request-timeout=5s");

    assertThat(watched.out()).contains("shop");
    assertThat(watched.err()).contains("serves watches over WebSocket only");
  }

  @Test
  void listsAreNamedAfterTheirKind() {
    gslb("shop", "roundRobin");

    assertThat(String.join("", kubectl("get", "--raw", "/apis/k8gb.io/v1beta1/gslbs")))
        .contains("\"kind\":\"GslbList\"")
        .contains("\"apiVersion\":\"k8gb.io/v1beta1\"");
    assertThat(String.join("", kubectl("get", "--raw", "/api/v1/namespaces/apps/events")))
        .contains("\"kind\":\"EventList\"");
    assertThat(String.join("", kubectl("get", "--raw", "/api/v1/nodes")))
        .contains("\"kind\":\"NodeList\"")
        .contains("\"items\":[]");
  }
}
