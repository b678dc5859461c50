package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.codec.CairnJson;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ProtobufBodiesTest {

  private static final JsonMapper JSON = CairnJson.kubernetesMapperBuilder().build();

  private static JsonNode json(String text) {
    return JSON.readTree(text.replace('\'', '"'));
  }

  /** What kubectl 1.32 sent the mock API, byte for byte (2026-12-02). */
  private static JsonNode decoded(String hex) {
    return ProtobufBodies.toJson(HexFormat.of().parseHex(hex));
  }

  @Test
  void readsKubectlCreateNamespace() {
    // kubectl create ns aaa-ns
    assertThat(
            decoded(
                "6b3873000a0f0a02763112094e616d657370616365121e0a160a066161612d6e7312001a0022002a00"
                    + "32003800420012001a020a001a002200"))
        .isEqualTo(
            json("{'apiVersion': 'v1', 'kind': 'Namespace', 'metadata': {'name': 'aaa-ns'}}"));
  }

  @Test
  void readsKubectlCreateConfigMapWithAnEmptyValue() {
    // kubectl create cm settings --from-literal=mode=fast --from-literal=empty=
    assertThat(
            decoded(
                "6b3873000a0f0a0276311209436f6e6669674d617012330a180a0873657474696e677312001a002200"
                    + "2a0032003800420012090a05656d7074791200120c0a046d6f64651204666173741a002200"))
        .isEqualTo(
            json(
                "{'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'settings'},"
                    + " 'data': {'empty': '', 'mode': 'fast'}}"));
  }

  @Test
  void readsKubectlCreateServiceWithNumberedAndNamedTargetPorts() {
    // kubectl create service clusterip web --tcp=80:8080 --tcp=443:https
    assertThat(
            decoded(
                "6b3873000a0d0a027631120753657276696365128d010a1f0a0377656212001a0022002a0032003800"
                    + "42005a0a0a03617070120377656212660a1b0a0738302d38303830120354435018502207080010"
                    + "903f1a0028000a220a093434332d6874747073120354435018bb03220b080110001a0568747470"
                    + "732800120a0a0361707012037765621a002209436c757374657249503a00420052005a00600068"
                    + "001a020a001a002200"))
        .isEqualTo(
            json(
                "{'apiVersion': 'v1', 'kind': 'Service',"
                    + " 'metadata': {'name': 'web', 'labels': {'app': 'web'}},"
                    + " 'spec': {'ports': ["
                    + "{'name': '80-8080', 'protocol': 'TCP', 'port': 80, 'targetPort': 8080},"
                    + " {'name': '443-https', 'protocol': 'TCP', 'port': 443, 'targetPort': 'https'}],"
                    + " 'selector': {'app': 'web'}, 'type': 'ClusterIP'}}"));
  }

  @Test
  void readsKubectlCreateIngressWithItsRuleValueInline() {
    // kubectl create ingress pay --class=nginx --rule="pay.cloud.example.com/*=web:80,tls=pay-cert"
    assertThat(
            decoded(
                "6b3873000a1f0a146e6574776f726b696e672e6b38732e696f2f76311207496e6772657373127e0a13"
                    + "0a0370617912001a0022002a00320038004200126312210a157061792e636c6f75642e6578616d"
                    + "706c652e636f6d12087061792d636572741a370a157061792e636c6f75642e6578616d706c652e"
                    + "636f6d121e0a1c0a1a0a012f120d220b0a0377656212040a0010501a0650726566697822056e67"
                    + "696e781a020a001a002200"))
        .isEqualTo(
            json(
                "{'apiVersion': 'networking.k8s.io/v1', 'kind': 'Ingress',"
                    + " 'metadata': {'name': 'pay'},"
                    + " 'spec': {'tls': [{'hosts': ['pay.cloud.example.com'], 'secretName': 'pay-cert'}],"
                    + " 'rules': [{'host': 'pay.cloud.example.com', 'http': {'paths': [{'path': '/',"
                    + " 'backend': {'service': {'name': 'web', 'port': {'number': 80}}},"
                    + " 'pathType': 'Prefix'}]}}],"
                    + " 'ingressClassName': 'nginx'}}"));
  }

  @Test
  void refusesAKindItDoesNotReadNamingWhatItReads() {
    // the envelope of an apps/v1 Deployment with an empty object
    byte[] deployment =
        HexFormat.of()
            .parseHex("6b3873000a150a07617070732f7631120a4465706c6f796d656e74120022002a00");
    assertThatThrownBy(() -> ProtobufBodies.toJson(deployment))
        .isInstanceOf(ProtobufBodies.UnsupportedBody.class)
        .hasMessageContaining("Namespace, ConfigMap, Service and Ingress")
        .hasMessageContaining("not of apps/v1 Deployment")
        .hasMessageContaining("kubectl create -f");
  }

  @Test
  void refusesWhatIsNotAKubernetesProtobufBody() {
    assertThatThrownBy(() -> ProtobufBodies.toJson("{}".getBytes()))
        .isInstanceOf(ProtobufBodies.UnsupportedBody.class);
    assertThatThrownBy(() -> ProtobufBodies.toJson(HexFormat.of().parseHex("6b387300128f")))
        .isInstanceOf(ProtobufBodies.UnsupportedBody.class)
        .hasMessageContaining("malformed");
  }

  @Test
  void knowsItsContentType() {
    assertThat(ProtobufBodies.isProtobuf("application/vnd.kubernetes.protobuf")).isTrue();
    assertThat(ProtobufBodies.isProtobuf("application/json")).isFalse();
    assertThat(ProtobufBodies.isProtobuf(null)).isFalse();
  }
}
