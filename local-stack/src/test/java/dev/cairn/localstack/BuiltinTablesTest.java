package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.CairnJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class BuiltinTablesTest {

  private static final JsonMapper JSON = CairnJson.kubernetesMapperBuilder().build();
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  private static JsonNode json(String text) {
    return JSON.readTree(text.replace('\'', '"'));
  }

  private static List<String> row(String groupVersion, String plural, String object) {
    JsonNode table =
        BuiltinTables.table(
                groupVersion, plural, List.of(json(object)), "7", ServerTables.Include.NONE, NOW)
            .orElseThrow();
    List<String> cells = new ArrayList<>();
    table.path("rows").get(0).path("cells").forEach(c -> cells.add(c.asString()));
    return cells;
  }

  private static List<String> header(String groupVersion, String plural) {
    JsonNode table =
        BuiltinTables.table(groupVersion, plural, List.of(), "7", ServerTables.Include.NONE, NOW)
            .orElseThrow();
    List<String> names = new ArrayList<>();
    table.path("columnDefinitions").forEach(c -> names.add(c.path("name").asString()));
    return names;
  }

  @Test
  void aNodeShowsItsReadinessAndRoles() {
    assertThat(header("v1", "nodes")).containsExactly("Name", "Status", "Roles", "Age");
    assertThat(
            row(
                "v1",
                "nodes",
                "{'metadata': {'name': 'eu-ingress-a', 'creationTimestamp': '2026-11-30T11:55:00Z',"
                    + " 'labels': {'node-role.kubernetes.io/ingress': '',"
                    + " 'node-role.kubernetes.io/control-plane': '', 'zone': 'a'}},"
                    + " 'status': {'conditions': [{'type': 'Ready', 'status': 'True'}]}}"))
        .containsExactly("eu-ingress-a", "Ready", "control-plane,ingress", "5m");
    assertThat(row("v1", "nodes", "{'metadata': {'name': 'n'}, 'spec': {'unschedulable': true}}"))
        .containsExactly("n", "Unknown,SchedulingDisabled", "<none>", "<unknown>");
  }

  @Test
  void anEndpointSliceShowsItsPortsAndFirstThreeAddresses() {
    assertThat(
            row(
                "discovery.k8s.io/v1",
                "endpointslices",
                "{'metadata': {'name': 'web-abc'}, 'addressType': 'IPv4',"
                    + " 'ports': [{'port': 8080}], 'endpoints': [{'addresses': ['10.0.0.1']},"
                    + " {'addresses': ['10.0.0.2']}, {'addresses': ['10.0.0.3']},"
                    + " {'addresses': ['10.0.0.4']}]}"))
        .containsExactly(
            "web-abc", "IPv4", "8080", "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...", "<unknown>");
  }

  @Test
  void anIngressWithoutClassOrStatusAndTlsOnAnyHost() {
    assertThat(
            row(
                "networking.k8s.io/v1",
                "ingresses",
                "{'metadata': {'name': 'store'}, 'spec': {'rules': [{'http': {}}],"
                    + " 'tls': [{'secretName': 's'}]}}"))
        .containsExactly("store", "<none>", "*", "<none>", "80, 443", "<unknown>");
  }

  @Test
  void aServiceShowsItsPortsAndExternalAddress() {
    assertThat(
            row(
                "v1",
                "services",
                "{'metadata': {'name': 'web'}, 'spec': {'type': 'LoadBalancer', 'clusterIP':"
                    + " '10.96.0.1', 'ports': [{'port': 80, 'nodePort': 30080, 'protocol': 'TCP'},"
                    + " {'port': 53, 'protocol': 'UDP'}]}, 'status': {'loadBalancer': {'ingress':"
                    + " [{'ip': '203.0.113.10'}, {'hostname': 'lb.example.net'}]}}}"))
        .containsExactly(
            "web",
            "LoadBalancer",
            "10.96.0.1",
            "203.0.113.10,lb.example.net",
            "80:30080/TCP,53/UDP",
            "<unknown>");
  }

  @Test
  void aNamespaceShowsItsPhaseActiveWhenItHasNone() {
    assertThat(header("v1", "namespaces")).containsExactly("Name", "Status", "Age");
    assertThat(
            row(
                "v1",
                "namespaces",
                "{'metadata': {'name': 'old', 'creationTimestamp': '2026-11-30T11:00:00Z'},"
                    + " 'status': {'phase': 'Terminating'}}"))
        .containsExactly("old", "Terminating", "60m");
    assertThat(row("v1", "namespaces", "{'metadata': {'name': 'aaa-ns'}}"))
        .containsExactly("aaa-ns", "Active", "<unknown>");
  }

  @Test
  void otherKindsAreLeftToKubectl() {
    assertThat(
            BuiltinTables.table(
                "coordination.k8s.io/v1", "leases", List.of(), "7", ServerTables.Include.NONE, NOW))
        .isEmpty();
  }
}
