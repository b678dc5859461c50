package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.codec.CairnJson;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class CustomResourceAdmissionTest {

  private static final JsonMapper JSON = CairnJson.kubernetesMapperBuilder().build();
  private static final String PATH = "/apis/k8gb.io/v1beta1/namespaces/apps/gslbs";

  private static CustomResourceAdmission.Schema gslbs() throws Exception {
    try (InputStream in =
        CustomResourceAdmissionTest.class
            .getClassLoader()
            .getResourceAsStream("crds/k8gb.io_gslbs.yaml")) {
      Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
      return CustomResourceAdmission.Schema.of(JSON.valueToTree(doc), "v1beta1");
    }
  }

  private static RecordedRequest request(HttpMethod method, String path, String type, String body) {
    Headers headers = Headers.builder().add("Content-Type", type).build();
    return new RecordedRequest(
        "HTTP/1.1",
        method,
        path,
        headers,
        new Buffer(body.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
  }

  private static final String APP =
      "{'apiVersion':'k8gb.io/v1beta1','kind':'Gslb','metadata':{'name':'app','namespace':'apps'},"
          + "'spec':{'resourceRef':{'kind':'HTTPRoute','name':'app'},"
          + "'strategy':{'type':'failover','primaryGeoTag':'eu'}}";

  @Test
  void mergesAsRfc7386Says() {
    JsonNode target = JSON.readTree("{\"a\":\"b\",\"c\":{\"d\":\"e\",\"f\":\"g\"},\"l\":[1,2]}");
    JsonNode patch = JSON.readTree("{\"a\":\"z\",\"c\":{\"f\":null},\"l\":[3],\"n\":{\"x\":1}}");

    JsonNode merged = CustomResourceAdmission.merge(target, patch);

    assertThat(merged.toString())
        .isEqualTo("{\"a\":\"z\",\"c\":{\"d\":\"e\"},\"l\":[3],\"n\":{\"x\":1}}");
    assertThat(target.path("c").has("f")).as("the target is not modified").isTrue();
    assertThat(CustomResourceAdmission.merge(target, JSON.readTree("[1]")).toString())
        .isEqualTo("[1]");
  }

  @Test
  void writesWithoutFieldValidationAndJsonPatchesPassAsTheyAre() throws Exception {
    RecordedRequest plain = request(HttpMethod.POST, PATH, "application/json", "{'spec':{'x':1}}");
    RecordedRequest jsonPatch =
        request(
            HttpMethod.PATCH,
            PATH + "/app?fieldValidation=Strict",
            "application/json-patch+json",
            "[{'op':'add','path':'/spec/x','value':1}]");

    assertThat(CustomResourceAdmission.admit(plain, gslbs(), null, false).request())
        .isSameAs(plain);
    assertThat(CustomResourceAdmission.admit(jsonPatch, gslbs(), APP + "}", false).request())
        .isSameAs(jsonPatch);
  }

  @Test
  void aMainResourceWriteLeavesTheStatusToItsSubresource() throws Exception {
    RecordedRequest put =
        request(
            HttpMethod.PUT,
            PATH + "/app?fieldValidation=Strict",
            "application/json",
            APP + ",'status':{'geoTag':7,'unknown':true}}");
    RecordedRequest status =
        request(
            HttpMethod.PUT,
            PATH + "/app/status?fieldValidation=Strict",
            "application/json",
            APP + ",'status':{'geoTag':'eu','unknown':true}}");

    CustomResourceAdmission.Outcome main = CustomResourceAdmission.admit(put, gslbs(), null, false);
    CustomResourceAdmission.Outcome sub =
        CustomResourceAdmission.admit(status, gslbs(), null, true);

    assertThat(main.refused()).isNull();
    assertThat(main.request()).isSameAs(put);
    assertThat(sub.refused().code()).isEqualTo(400);
    assertThat(sub.refused().getBody().readUtf8()).contains("unknown field \\\"status.unknown\\\"");
  }

  @Test
  void anInvalidValueIsA422NamingEachField() throws Exception {
    RecordedRequest post =
        request(
            HttpMethod.POST,
            PATH + "?fieldValidation=Strict",
            "application/json",
            "{'apiVersion':'k8gb.io/v1beta1','kind':'Gslb','metadata':{'name':'bad'},"
                + "'spec':{'resourceRef':{'name':'x'},'strategy':{'type':'failover','dnsTtlSeconds':'30','weight':{'eu':'5'}}}}");

    CustomResourceAdmission.Outcome outcome =
        CustomResourceAdmission.admit(post, gslbs(), null, false);

    assertThat(outcome.refused().code()).isEqualTo(422);
    @SuppressWarnings("unchecked")
    Map<String, Object> status = JSON.readValue(outcome.refused().getBody().readUtf8(), Map.class);
    assertThat(status).containsEntry("reason", "Invalid").containsEntry("code", 422);
    assertThat((String) status.get("message"))
        .startsWith("Gslb.k8gb.io \"bad\" is invalid: [")
        .contains("spec.strategy.dnsTtlSeconds: Invalid value: \"30\"");
    @SuppressWarnings("unchecked")
    Map<String, Object> details = (Map<String, Object>) status.get("details");
    assertThat(details).containsEntry("kind", "Gslb").containsEntry("group", "k8gb.io");
  }

  @Test
  void anUnsupportedValidationModeIsRefused() throws Exception {
    RecordedRequest post =
        request(HttpMethod.POST, PATH + "?fieldValidation=Loose", "application/json", APP + "}");

    assertThat(CustomResourceAdmission.admit(post, gslbs(), null, false).refused().code())
        .isEqualTo(400);
  }
}
