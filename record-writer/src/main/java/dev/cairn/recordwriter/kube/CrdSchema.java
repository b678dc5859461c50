package dev.cairn.recordwriter.kube;

import dev.cairn.commonmodel.validation.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The structural schema ({@code openAPIV3Schema}) of one version of a CustomResourceDefinition,
 * used to check every object before it is sent. The fabric8 CRUD mock validates nothing and a real
 * API server silently prunes unknown fields, so a mapping mistake would otherwise go unnoticed.
 *
 * <p>Checked keywords: {@code type} (object, array, string, integer, number, boolean), {@code
 * format} int32/int64 ranges, {@code properties} (a field the schema does not declare is an error,
 * since the server would drop it, unless {@code x-kubernetes-preserve-unknown-fields}), {@code
 * additionalProperties}, {@code items}, {@code required}, {@code enum}, {@code pattern}, {@code
 * minLength}/{@code maxLength}, {@code minItems}/{@code maxItems}, {@code minimum}/{@code maximum},
 * {@code nullable}. {@code metadata} is left to the API server (the schema declares it as a bare
 * object).
 */
public final class CrdSchema {

  private final String description;
  private final Map<String, Object> root;

  private CrdSchema(String description, Map<String, Object> root) {
    this.description = description;
    this.root = root;
  }

  /**
   * Loads the schema of one served version from a CRD manifest on the classpath.
   *
   * @param resource the classpath resource, e.g. {@code crds/dnsendpoints.externaldns.k8s.io.yaml}
   * @param version the version name, e.g. {@code v1alpha1}
   * @throws IllegalStateException when the resource is missing or has no such version
   */
  public static CrdSchema load(String resource, String version) {
    try (InputStream in = CrdSchema.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("CRD manifest " + resource + " is not on the classpath");
      }
      Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
      return fromManifest(resource, doc, version);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + resource, e);
    }
  }

  /**
   * The schema of one served version of a CRD given as its JSON form (maps and lists), as an API
   * server holds it.
   *
   * @throws IllegalStateException when the CRD has no such version or no schema for it
   */
  public static CrdSchema of(Map<String, Object> crd, String version) {
    Object name = crd.get("metadata") instanceof Map<?, ?> m ? m.get("name") : null;
    return fromManifest("CustomResourceDefinition " + name, crd, version);
  }

  @SuppressWarnings("unchecked")
  static CrdSchema fromManifest(String where, Object doc, String version) {
    Map<String, Object> crd = asMap(doc, where);
    Map<String, Object> spec = asMap(crd.get("spec"), where + ": spec");
    Map<String, Object> names = asMap(spec.get("names"), where + ": spec.names");
    for (Object v : (List<Object>) spec.getOrDefault("versions", List.of())) {
      Map<String, Object> ver = asMap(v, where + ": spec.versions[]");
      if (version.equals(ver.get("name"))) {
        Map<String, Object> schema = asMap(ver.get("schema"), where + ": schema");
        return new CrdSchema(
            spec.get("group") + "/" + version + " " + names.get("kind"),
            asMap(schema.get("openAPIV3Schema"), where + ": openAPIV3Schema"));
      }
    }
    throw new IllegalStateException(where + " has no version " + version);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(Object o, String where) {
    if (!(o instanceof Map<?, ?> m)) {
      throw new IllegalStateException(where + " is not a mapping");
    }
    return (Map<String, Object>) m;
  }

  /** {@code group/version Kind}. */
  public String description() {
    return description;
  }

  /**
   * Checks an object in its JSON form (maps, lists, strings, numbers, booleans).
   *
   * @return every violation, each naming the field path; empty when the object conforms
   */
  public List<Problem> validate(Map<String, Object> object) {
    List<Problem> problems = new ArrayList<>();
    check(root, object, "", new Sink(problems, null, false), true);
    return problems;
  }

  /**
   * What an API server finds in an object it is sent: the fields the schema does not declare (it
   * drops them, or refuses them with {@code fieldValidation=Strict}) apart from the values that
   * break the schema (it refuses those).
   *
   * @param problems each value that breaks the schema, naming its field
   * @param unknownFields each field the schema does not declare ({@code spec.foo}, {@code
   *     spec.items[0].bar}), in the object's order
   */
  public record Checked(List<Problem> problems, List<String> unknownFields) {}

  /**
   * Checks an object as an API server does before storing it: every field the schema does not
   * declare is listed apart from the other problems and, when {@code prune}, removed from the
   * object (whose maps must then be mutable), as the API server prunes unknown fields.
   */
  public Checked check(Map<String, Object> object, boolean prune) {
    List<Problem> problems = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    check(root, object, "", new Sink(problems, unknown, prune), true);
    return new Checked(problems, unknown);
  }

  /** As {@link #check(Map, boolean)} for one top-level field (a subresource such as status). */
  @SuppressWarnings("unchecked")
  public Checked checkField(String field, Object value, boolean prune) {
    Object properties = root.get("properties");
    Object sub = properties instanceof Map<?, ?> p ? p.get(field) : null;
    if (!(sub instanceof Map<?, ?> subSchema)) {
      throw new IllegalArgumentException(description + " declares no field " + field);
    }
    List<Problem> problems = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    check((Map<String, Object>) subSchema, value, field, new Sink(problems, unknown, prune), false);
    return new Checked(problems, unknown);
  }

  /**
   * Where a check reports: unknown fields go to {@code unknown} when it is given, else they are
   * problems; {@code prune} removes them from the object.
   */
  private record Sink(List<Problem> problems, List<String> unknown, boolean prune) {
    void add(Problem p) {
      problems.add(p);
    }
  }

  /**
   * Checks one top-level field of an object (e.g. {@code status}, written through its subresource)
   * in its JSON form against the schema of that field.
   *
   * @return every violation, each naming the field path from the object's root
   * @throws IllegalArgumentException when the schema declares no such field
   */
  @SuppressWarnings("unchecked")
  public List<Problem> validateField(String field, Object value) {
    Object properties = root.get("properties");
    Object sub = properties instanceof Map<?, ?> p ? p.get(field) : null;
    if (!(sub instanceof Map<?, ?> subSchema)) {
      throw new IllegalArgumentException(description + " declares no field " + field);
    }
    List<Problem> problems = new ArrayList<>();
    check((Map<String, Object>) subSchema, value, field, new Sink(problems, null, false), false);
    return problems;
  }

  @SuppressWarnings("unchecked")
  private void check(
      Map<String, Object> schema, Object value, String path, Sink out, boolean isRoot) {
    String field = path.isEmpty() ? "<root>" : path;
    if (value == null) {
      if (!Boolean.TRUE.equals(schema.get("nullable"))) {
        out.add(new Problem(field, null, "null is not allowed here"));
      }
      return;
    }
    String type = (String) schema.get("type");
    boolean intOrString = Boolean.TRUE.equals(schema.get("x-kubernetes-int-or-string"));
    if (intOrString) {
      if (!(value instanceof String) && !isInteger(value)) {
        out.add(new Problem(field, String.valueOf(value), "must be an integer or a string"));
      }
      return;
    }
    if (type != null && !hasType(type, value)) {
      out.add(
          new Problem(
              field,
              String.valueOf(value),
              "must be of type " + type + ", found " + value.getClass().getSimpleName()));
      return;
    }
    if (schema.get("enum") instanceof Collection<?> allowed && !allowed.contains(value)) {
      out.add(new Problem(field, String.valueOf(value), "must be one of " + allowed));
    }
    if (value instanceof String s) {
      checkString(schema, s, field, out);
    } else if (value instanceof Number n) {
      checkNumber(schema, n, field, out);
    } else if (value instanceof List<?> list) {
      checkLength(schema, list.size(), "minItems", "maxItems", "items", field, out);
      if (schema.get("items") instanceof Map<?, ?> items) {
        for (int i = 0; i < list.size(); i++) {
          check((Map<String, Object>) items, list.get(i), path + "[" + i + "]", out, false);
        }
      }
    } else if (value instanceof Map<?, ?> map) {
      checkObject(schema, (Map<String, Object>) map, path, out, isRoot);
    }
  }

  @SuppressWarnings("unchecked")
  private void checkObject(
      Map<String, Object> schema, Map<String, Object> map, String path, Sink out, boolean isRoot) {
    if (schema.get("required") instanceof List<?> required) {
      for (Object r : required) {
        if (!map.containsKey(String.valueOf(r))) {
          out.add(new Problem(join(path, String.valueOf(r)), null, "is required"));
        }
      }
    }
    Map<String, Object> properties = (Map<String, Object>) schema.get("properties");
    Object additional = schema.get("additionalProperties");
    boolean preserveUnknown =
        Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields"));
    if (properties == null && additional == null) {
      return; // a bare object (metadata): left to the API server
    }
    for (var it = map.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Object> e = it.next();
      String child = join(path, e.getKey());
      if (isRoot && e.getKey().equals("metadata")) {
        continue;
      }
      Object sub = properties == null ? null : properties.get(e.getKey());
      if (sub instanceof Map<?, ?> subSchema) {
        check((Map<String, Object>) subSchema, e.getValue(), child, out, false);
      } else if (additional instanceof Map<?, ?> addSchema) {
        check((Map<String, Object>) addSchema, e.getValue(), child, out, false);
      } else if (!Boolean.TRUE.equals(additional) && !preserveUnknown) {
        if (out.unknown() != null) {
          out.unknown().add(child);
          if (out.prune()) {
            it.remove();
          }
        } else {
          out.add(
              new Problem(
                  child,
                  String.valueOf(e.getValue()),
                  "is not declared by the schema of "
                      + description
                      + "; the API server would drop it"));
        }
      }
    }
  }

  private static void checkString(Map<String, Object> schema, String s, String field, Sink out) {
    checkLength(schema, s.length(), "minLength", "maxLength", "characters", field, out);
    if (schema.get("pattern") instanceof String pattern
        && !Pattern.compile(pattern).matcher(s).find()) {
      out.add(new Problem(field, s, "does not match the pattern " + pattern));
    }
  }

  private static void checkNumber(Map<String, Object> schema, Number n, String field, Sink out) {
    String format = (String) schema.get("format");
    if ("int32".equals(format)
        && (n.longValue() < Integer.MIN_VALUE || n.longValue() > Integer.MAX_VALUE)) {
      out.add(new Problem(field, n.toString(), "is out of the int32 range"));
    }
    if ("int64".equals(format) && n instanceof java.math.BigInteger big && big.bitLength() > 63) {
      out.add(new Problem(field, n.toString(), "is out of the int64 range"));
    }
    if (schema.get("minimum") instanceof Number min && n.doubleValue() < min.doubleValue()) {
      out.add(new Problem(field, n.toString(), "must be at least " + min));
    }
    if (schema.get("maximum") instanceof Number max && n.doubleValue() > max.doubleValue()) {
      out.add(new Problem(field, n.toString(), "must be at most " + max));
    }
  }

  private static void checkLength(
      Map<String, Object> schema,
      int length,
      String minKey,
      String maxKey,
      String unit,
      String field,
      Sink out) {
    if (schema.get(minKey) instanceof Number min && length < min.longValue()) {
      out.add(new Problem(field, Integer.toString(length), "needs at least " + min + " " + unit));
    }
    if (schema.get(maxKey) instanceof Number max && length > max.longValue()) {
      out.add(new Problem(field, Integer.toString(length), "allows at most " + max + " " + unit));
    }
  }

  private static boolean hasType(String type, Object value) {
    return switch (type) {
      case "object" -> value instanceof Map<?, ?>;
      case "array" -> value instanceof List<?>;
      case "string" -> value instanceof String;
      case "integer" -> isInteger(value);
      case "number" -> value instanceof Number;
      case "boolean" -> value instanceof Boolean;
      default -> true;
    };
  }

  private static boolean isInteger(Object value) {
    return value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof java.math.BigInteger;
  }

  private static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }
}
