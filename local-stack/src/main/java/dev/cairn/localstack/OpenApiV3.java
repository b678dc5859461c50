package dev.cairn.localstack;

import dev.cairn.commonmodel.codec.CairnJson;
import io.fabric8.kubernetes.api.model.APIResource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI v3 documents of the mock APIs ({@code /openapi/v3} and one per group/version), as
 * much of them as kubectl reads:
 *
 * <ul>
 *   <li>{@code kubectl apply} and {@code create} validate on the server when the PATCH operation of
 *       the kind takes the {@code fieldValidation} parameter; each document declares it, and the
 *       mock honours it for custom resources ({@link IndexedCrudDispatcher}: their CRD's schema,
 *       unknown fields refused with {@code Strict}, dropped with a warning with {@code Warn}).
 *       Without these documents kubectl refuses to apply anything unless told {@code
 *       --validate=false}.
 *   <li>{@code kubectl explain gslb.spec.strategy}: each custom resource's schema, under its
 *       reversed-group name ({@code io.k8gb.v1beta1.Gslb}) with its group, version and kind.
 * </ul>
 *
 * Built-in kinds have paths but no schemas (explain does not know them here).
 */
final class OpenApiV3 {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper JSON = CairnJson.kubernetesMapperBuilder().build();

  private OpenApiV3() {}

  /** The documents by request path (without query): the index and one per group/version. */
  static Map<String, String> documents(List<String> crdResources) {
    Map<String, JsonNode> schemas = new LinkedHashMap<>();
    for (String resource : crdResources) {
      JsonNode crd = load(resource);
      JsonNode spec = crd.path("spec");
      String group = spec.path("group").asString();
      String kind = spec.path("names").path("kind").asString();
      for (JsonNode version : spec.path("versions")) {
        JsonNode schema = version.path("schema").path("openAPIV3Schema");
        if (!schema.isObject()) {
          continue;
        }
        String name = version.path("name").asString();
        ObjectNode published = ((ObjectNode) schema).deepCopy();
        ArrayNode gvk = published.putArray("x-kubernetes-group-version-kind");
        gvk.addObject().put("group", group).put("version", name).put("kind", kind);
        schemas.put(group + "/" + name + "/" + kind, published);
      }
    }
    Map<String, String> documents = new LinkedHashMap<>();
    ObjectNode index = NODES.objectNode();
    ObjectNode paths = index.putObject("paths");
    for (Map.Entry<String, List<APIResource>> e : ApiResources.BY_GROUP_VERSION.entrySet()) {
      String groupVersion = e.getKey();
      String root = groupVersion.equals("v1") ? "api/v1" : "apis/" + groupVersion;
      ObjectNode document = document(groupVersion, root, e.getValue(), schemas);
      String text = JSON.writeValueAsString(document);
      String hash = Integer.toHexString(text.hashCode()).toUpperCase(Locale.ROOT);
      paths.putObject(root).put("serverRelativeURL", "/openapi/v3/" + root + "?hash=" + hash);
      documents.put("/openapi/v3/" + root, text);
    }
    documents.put("/openapi/v3", JSON.writeValueAsString(index));
    return Map.copyOf(documents);
  }

  private static ObjectNode document(
      String groupVersion, String root, List<APIResource> resources, Map<String, JsonNode> crds) {
    String group = groupVersion.contains("/") ? groupVersion.split("/")[0] : "";
    String version = groupVersion.contains("/") ? groupVersion.split("/")[1] : groupVersion;
    ObjectNode doc = NODES.objectNode();
    doc.put("openapi", "3.0.0");
    doc.putObject("info").put("title", "Kubernetes (Cairn local stack)").put("version", "v1.32.0");
    ObjectNode paths = doc.putObject("paths");
    ObjectNode schemas = doc.putObject("components").putObject("schemas");
    for (APIResource r : resources) {
      String base =
          "/"
              + root
              + (Boolean.TRUE.equals(r.getNamespaced()) ? "/namespaces/{namespace}/" : "/")
              + r.getName()
              + "/{name}";
      ObjectNode patch = paths.putObject(base).putObject("patch");
      patch.put("description", "partially update the specified " + r.getKind());
      patch.put("operationId", "patch" + r.getKind());
      ArrayNode parameters = patch.putArray("parameters");
      parameters
          .addObject()
          .put("name", "fieldValidation")
          .put("in", "query")
          .put(
              "description",
              "Ignore, Warn or Strict: what the server does with fields the schema does not"
                  + " declare (custom resources)")
          .putObject("schema")
          .put("type", "string");
      patch.putObject("responses").putObject("200").put("description", "OK");
      patch.put("x-kubernetes-action", "patch");
      patch
          .putObject("x-kubernetes-group-version-kind")
          .put("group", group)
          .put("version", version)
          .put("kind", r.getKind());
      JsonNode schema = crds.get(group + "/" + version + "/" + r.getKind());
      if (schema != null) {
        schemas.set(schemaName(group, version, r.getKind()), schema);
      }
    }
    return doc;
  }

  /** {@code io.k8gb.v1beta1.Gslb}: the group reversed, as the API server names CRD schemas. */
  static String schemaName(String group, String version, String kind) {
    String[] parts = group.split("\\.");
    StringBuilder b = new StringBuilder();
    for (int i = parts.length - 1; i >= 0; i--) {
      b.append(parts[i]).append('.');
    }
    return b.append(version).append('.').append(kind).toString();
  }

  private static JsonNode load(String resource) {
    try (InputStream in = OpenApiV3.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("CRD manifest " + resource + " is not on the classpath");
      }
      return JSON.valueToTree(new Yaml(new SafeConstructor(new LoaderOptions())).load(in));
    } catch (IOException e) {
      throw new UncheckedIOException(resource, e);
    }
  }
}
