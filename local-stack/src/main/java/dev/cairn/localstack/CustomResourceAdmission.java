package dev.cairn.localstack;

import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.kube.CrdSchema;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the API server does with a custom resource before it stores it, for writes that ask for
 * field validation ({@code ?fieldValidation=}, which kubectl always sends): the object (for a merge
 * patch, the stored object with the patch applied) is checked against its CRD's schema ({@link
 * CrdSchema}).
 *
 * <ul>
 *   <li>A value that breaks the schema: 422 Invalid, naming each field.
 *   <li>A field the schema does not declare: with {@code Strict}, 400 ("strict decoding error:
 *       unknown field"); with {@code Warn}, dropped and a {@code Warning} header per field; with
 *       {@code Ignore}, dropped.
 *   <li>Writes of the main resource do not check {@code status} when the CRD has a status
 *       subresource (the API server ignores it there); writes of {@code /status} check only it.
 * </ul>
 *
 * Writes without the parameter (the services' own, which check their objects themselves) are stored
 * as sent, as are JSON patches and kinds without a CRD.
 */
final class CustomResourceAdmission {

  private static final JsonMapper JSON = CairnJson.kubernetesMapperBuilder().build();
  private static final String MERGE_PATCH = "application/merge-patch+json";
  private static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

  private CustomResourceAdmission() {}

  /**
   * The outcome: the request to hand on (the original, or one carrying the object without its
   * unknown fields), or a refusal; and the warnings to add to the response.
   */
  record Outcome(RecordedRequest request, MockResponse refused, List<String> warnings) {
    static Outcome accept(RecordedRequest request) {
      return new Outcome(request, null, List.of());
    }

    /** A refusal: a {@code Status} with the code, reason, message and details (0 or 1). */
    static Outcome refuse(int code, String reason, String message, List<ObjectNode> details) {
      ObjectNode status = JsonNodeFactory.instance.objectNode();
      status.put("apiVersion", "v1");
      status.put("kind", "Status");
      status.putObject("metadata");
      status.put("status", "Failure");
      status.put("message", message);
      status.put("reason", reason);
      if (!details.isEmpty()) {
        status.set("details", details.get(0));
      }
      status.put("code", code);
      return new Outcome(
          null,
          new MockResponse()
              .setResponseCode(code)
              .addHeader("Content-Type", "application/json")
              .setBody(JSON.writeValueAsString(status)),
          List.of());
    }
  }

  /** One served version of a CRD: its schema and what the messages name. */
  record Schema(
      CrdSchema schema, String group, String kind, String version, boolean statusSubresource) {

    /** The version {@code version} of a CRD in its JSON form, or null when it serves none. */
    static Schema of(JsonNode crd, String version) {
      for (JsonNode v : crd.path("spec").path("versions")) {
        if (version.equals(v.path("name").asString("")) && v.path("schema").isObject()) {
          @SuppressWarnings("unchecked")
          Map<String, Object> map = JSON.convertValue(crd, Map.class);
          return new Schema(
              CrdSchema.of(map, version),
              crd.path("spec").path("group").asString(""),
              crd.path("spec").path("names").path("kind").asString(""),
              version,
              v.path("subresources").has("status"));
        }
      }
      return null;
    }
  }

  /**
   * Checks a POST, PUT or PATCH of a custom resource.
   *
   * @param schema the resource's CRD version
   * @param current the stored object's JSON (for a PATCH), or null
   * @param statusWrite whether the write is to the {@code /status} subresource
   */
  static Outcome admit(
      RecordedRequest request, Schema schema, String current, boolean statusWrite) {
    String mode = IndexedCrudDispatcher.queryParameters(request.getPath()).get("fieldValidation");
    if (mode == null) {
      return Outcome.accept(request);
    }
    if (!mode.equals("Strict") && !mode.equals("Warn") && !mode.equals("Ignore")) {
      return Outcome.refuse(
          400,
          "BadRequest",
          "fieldValidation: Unsupported value: \""
              + mode
              + "\": supported values: \"Ignore\","
              + " \"Strict\", \"Warn\"",
          List.of());
    }
    boolean patch = request.method() == HttpMethod.PATCH;
    String type = request.getHeader("Content-Type");
    if (patch
        && (type == null
            || !(type.startsWith(MERGE_PATCH) || type.startsWith(STRATEGIC_MERGE_PATCH)))) {
      return Outcome.accept(request); // JSON patch: stored as the patch handler makes it
    }
    String body = new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
    JsonNode object;
    try {
      JsonNode sent = JSON.readTree(body);
      object = patch ? merge(current == null ? null : JSON.readTree(current), sent) : sent;
    } catch (JacksonException e) {
      return Outcome.accept(request); // not JSON: the handler answers 400
    }
    if (!(object instanceof ObjectNode)) {
      return Outcome.accept(request);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> map = JSON.convertValue(object, LinkedHashMap.class);
    boolean prune = !mode.equals("Strict");
    CrdSchema.Checked checked;
    if (statusWrite) {
      checked =
          map.get("status") == null
              ? new CrdSchema.Checked(List.of(), List.of())
              : schema.schema().checkField("status", map.get("status"), prune);
    } else {
      Object status = schema.statusSubresource() ? map.remove("status") : null;
      checked = schema.schema().check(map, prune);
      if (status != null) {
        map.put("status", status);
      }
    }
    String name = object.path("metadata").path("name").asString("");
    if (!checked.unknownFields().isEmpty() && mode.equals("Strict")) {
      List<String> unknown = new ArrayList<>();
      checked.unknownFields().forEach(f -> unknown.add("unknown field \"" + f + "\""));
      return Outcome.refuse(
          400,
          "BadRequest",
          schema.kind()
              + " in version \""
              + schema.version()
              + "\" cannot be handled as a "
              + schema.kind()
              + ": strict decoding error: "
              + String.join(", ", unknown),
          List.of());
    }
    if (!checked.problems().isEmpty()) {
      return invalid(schema, name, checked.problems());
    }
    if (checked.unknownFields().isEmpty()) {
      return Outcome.accept(request);
    }
    List<String> warnings = new ArrayList<>();
    if (mode.equals("Warn")) {
      checked.unknownFields().forEach(f -> warnings.add("unknown field \"" + f + "\""));
    }
    // The object without its unknown fields, written whole: a patch becomes the update it makes.
    RecordedRequest pruned =
        new RecordedRequest(
            request.getHttpVersion(),
            patch ? HttpMethod.PUT : request.method(),
            request.getPath(),
            request.getHeaders(),
            new Buffer(JSON.writeValueAsBytes(map)));
    return new Outcome(pruned, null, warnings);
  }

  /** The API server's 422: {@code Gslb.k8gb.io "app" is invalid: [field: Invalid value: ...]}. */
  private static Outcome invalid(Schema schema, String name, List<Problem> problems) {
    List<String> messages = new ArrayList<>();
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    details.put("name", name);
    details.put("group", schema.group());
    details.put("kind", schema.kind());
    var causes = details.putArray("causes");
    for (Problem p : problems) {
      String message =
          p.value() == null
              ? (p.reason().equals("is required") ? "Required value" : p.reason())
              : "Invalid value: \"" + p.value() + "\": " + p.reason();
      messages.add(p.field() + ": " + message);
      causes
          .addObject()
          .put("reason", p.value() == null ? "FieldValueRequired" : "FieldValueInvalid")
          .put("message", message)
          .put("field", p.field());
    }
    String all = messages.size() == 1 ? messages.get(0) : "[" + String.join(", ", messages) + "]";
    return Outcome.refuse(
        422,
        "Invalid",
        schema.kind() + "." + schema.group() + " \"" + name + "\" is invalid: " + all,
        List.of(details));
  }

  /** RFC 7386 JSON merge patch of {@code target} (not modified) with {@code patch}. */
  static JsonNode merge(JsonNode target, JsonNode patch) {
    if (!(patch instanceof ObjectNode patchObject)) {
      return patch;
    }
    ObjectNode result =
        target instanceof ObjectNode t ? t.deepCopy() : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> e : patchObject.properties()) {
      if (e.getValue().isNull()) {
        result.remove(e.getKey());
      } else {
        result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }
}
