package dev.cairn.topologywatcher.kube;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cairn.commonmodel.validation.Problem;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * Turns an object read untyped into fabric8's typed model, one object at a time.
 *
 * <p>Custom resources are listed and watched untyped ({@link GenericKubernetesResource}): a CRD
 * without a schema, or one that preserves unknown fields, lets an object with a field of the wrong
 * type through (say {@code hostnames: 12345}), and a typed informer could not read the list it is
 * in, so it would stop seeing every object of the kind. Here a field that does not fit the model is
 * a {@link Problem} of that one object, naming the field ({@code
 * spec.rules[0].backendRefs[0].port}), the value and its type, and is read as absent; the rest of
 * the object converts as it would have been read typed.
 */
final class TypedConversion {

  /** The watcher client's serialization, so an object converts as a typed informer read it. */
  private static final KubernetesSerialization SERIALIZATION = WatcherSerialization.create();

  /** More wrongly typed fields than this and the rest of the object is not read. */
  private static final int MAX_PROBLEMS = 20;

  private static final Set<String> KEPT_WHEN_UNREADABLE = Set.of("apiVersion", "kind", "metadata");

  private TypedConversion() {}

  /**
   * An object in the typed model, and what could not be converted.
   *
   * @param object the typed object; fields named in {@code problems} are absent
   * @param problems one per field of the wrong type, in the order found
   */
  record Converted<T>(T object, List<Problem> problems) {
    Converted {
      problems = List.copyOf(problems);
    }
  }

  /**
   * Converts an object. A field that does not fit the model never makes this throw; any other
   * failure is thrown, and the informer store then keeps the object's last state.
   *
   * @param object the object as listed or watched
   * @param type the fabric8 model class
   */
  static <T> Converted<T> convert(GenericKubernetesResource object, Class<T> type) {
    try {
      return new Converted<>(SERIALIZATION.convertValue(object, type), List.of());
    } catch (RuntimeException e) {
      return salvage(object, type, e);
    }
  }

  /** Converts again and again, each time without the field the last attempt failed on. */
  private static <T> Converted<T> salvage(
      GenericKubernetesResource object, Class<T> type, RuntimeException first) {
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = SERIALIZATION.convertValue(object, Map.class);
    List<Problem> problems = new ArrayList<>();
    RuntimeException failure = first;
    while (true) {
      DatabindException cause = databindCause(failure);
      if (cause == null) {
        throw failure;
      }
      List<JacksonException.Reference> path = cause.getPath();
      String field = fieldPath(path);
      Slot slot = Slot.find(tree, path);
      if (slot == null || slot.value() == null || problems.size() >= MAX_PROBLEMS) {
        // Cannot tell which field it is, or too many: the object is published without its
        // contents, so that it is still seen and its problem named.
        problems.add(
            new Problem(
                field.isEmpty() ? "spec" : field,
                slot == null || slot.value() == null ? null : String.valueOf(slot.value()),
                "cannot be read as a "
                    + type.getSimpleName()
                    + " ("
                    + firstLine(cause.getOriginalMessage())
                    + "); the object is read without its spec and status"));
        tree.keySet().retainAll(KEPT_WHEN_UNREADABLE);
        return new Converted<>(SERIALIZATION.convertValue(tree, type), problems);
      }
      problems.add(
          new Problem(
              field,
              String.valueOf(slot.value()),
              "expected "
                  + expected(cause, path)
                  + ", found "
                  + UntypedFields.typeOf(slot.value())));
      slot.clear();
      try {
        return new Converted<>(SERIALIZATION.convertValue(tree, type), problems);
      } catch (RuntimeException e) {
        failure = e;
      }
    }
  }

  private static DatabindException databindCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof DatabindException d) {
        return d;
      }
    }
    return null;
  }

  /** {@code spec.rules[0].backendRefs[0].port}. */
  static String fieldPath(List<JacksonException.Reference> path) {
    StringBuilder sb = new StringBuilder();
    for (JacksonException.Reference ref : path) {
      if (ref.getPropertyName() != null) {
        sb.append(sb.isEmpty() ? "" : ".").append(ref.getPropertyName());
      } else if (ref.getIndex() >= 0) {
        sb.append('[').append(ref.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  /** Where the failing value is in the tree: its container and its key or index. */
  private record Slot(Object container, Object at, Object value) {

    static Slot find(Map<String, Object> tree, List<JacksonException.Reference> path) {
      if (path.isEmpty()) {
        return null;
      }
      Object container = null;
      Object at = null;
      Object current = tree;
      for (JacksonException.Reference ref : path) {
        container = current;
        if (ref.getPropertyName() != null && current instanceof Map<?, ?> map) {
          at = ref.getPropertyName();
          current = map.get(at);
        } else if (ref.getPropertyName() == null
            && current instanceof List<?> list
            && ref.getIndex() >= 0
            && ref.getIndex() < list.size()) {
          at = ref.getIndex();
          current = list.get(ref.getIndex());
        } else {
          return null;
        }
      }
      return new Slot(container, at, current);
    }

    /** Removes a map entry; a list item becomes {@code null}, so later items keep their index. */
    @SuppressWarnings("unchecked")
    void clear() {
      if (container instanceof Map<?, ?> map) {
        map.remove(at);
      } else {
        ((List<Object>) container).set((Integer) at, null);
      }
    }
  }

  /** What the model expects at the end of the path: "a list of strings", "an integer". */
  private static String expected(DatabindException cause, List<JacksonException.Reference> path) {
    JacksonException.Reference last = path.get(path.size() - 1);
    if (last.getPropertyName() != null && last.from() != null && !(last.from() instanceof Map)) {
      Class<?> owner = last.from() instanceof Class<?> c ? c : last.from().getClass();
      Type declared = propertyType(owner, last.getPropertyName());
      if (declared != null) {
        return describe(declared);
      }
    }
    if (cause instanceof MismatchedInputException m && m.getTargetType() != null) {
      return describe(m.getTargetType());
    }
    return "another type";
  }

  /** The declared type of a model property, found by its JSON name. */
  private static Type propertyType(Class<?> owner, String name) {
    for (Class<?> c = owner; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        JsonProperty json = f.getAnnotation(JsonProperty.class);
        String jsonName = json == null || json.value().isEmpty() ? f.getName() : json.value();
        if (jsonName.equals(name)) {
          return f.getGenericType();
        }
      }
    }
    return null;
  }

  static String describe(Type type) {
    if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
      if (Collection.class.isAssignableFrom(raw) && p.getActualTypeArguments().length == 1) {
        return "a list of " + plural(p.getActualTypeArguments()[0]);
      }
      return describe(raw);
    }
    if (!(type instanceof Class<?> c)) {
      return "another type";
    }
    if (c == String.class) {
      return "a string";
    }
    if (c == Integer.class
        || c == int.class
        || c == Long.class
        || c == long.class
        || c == Short.class
        || c == short.class
        || c == BigInteger.class) {
      return "an integer";
    }
    if (Number.class.isAssignableFrom(c) || c == double.class || c == float.class) {
      return "a number";
    }
    if (c == Boolean.class || c == boolean.class) {
      return "a boolean";
    }
    if (c == IntOrString.class) {
      return "an integer or a string";
    }
    if (Collection.class.isAssignableFrom(c) || c.isArray()) {
      return "a list";
    }
    return "an object";
  }

  private static String plural(Type item) {
    String one = describe(item);
    return switch (one) {
      case "a string" -> "strings";
      case "an integer" -> "integers";
      case "a number" -> "numbers";
      case "a boolean" -> "booleans";
      case "an object" -> "objects";
      default -> one.startsWith("a list") ? "lists" : "values";
    };
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).strip();
  }
}
