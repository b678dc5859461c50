package dev.cairn.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.yaml.snakeyaml.Yaml;

/**
 * The umbrella chart rendered by real Helm (helm-java's {@code helm template}), each document read
 * as a typed fabric8 object. Reading fails when a document has a field its kind does not know
 * ({@link #unknownFields}), so a misspelt key in a template fails the tests instead of being
 * dropped by the API server.
 */
final class RenderedChart {

  static final Path CHART = Path.of("cairn").toAbsolutePath();
  static final String RELEASE = "cairn";
  static final String NAMESPACE = "cairn-system";
  static final List<String> SERVICES =
      List.of(
          "topology-watcher", "health-prober", "strategy-engine", "record-writer", "dns-responder");

  /** The values every test starts from: what a user must set for one cluster. */
  static Map<String, Object> minimalValues() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("global.clusterGeoTag", "eu");
    values.put("global.dnsZones[0].loadBalancedZone", "cloud.example.com");
    return values;
  }

  /** {@link #minimalValues()} with the given keys and values (key, value, key, value, ...). */
  static Map<String, Object> values(Object... keysAndValues) {
    Map<String, Object> values = minimalValues();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      values.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return values;
  }

  final String yaml;
  final List<HasMetadata> objects;

  private RenderedChart(String yaml) {
    this.yaml = yaml;
    List<HasMetadata> read = new ArrayList<>();
    for (Object doc : new Yaml().loadAll(yaml)) {
      if (doc == null) {
        continue;
      }
      String json = Serialization.asJson(doc);
      HasMetadata object = Serialization.unmarshal(json, HasMetadata.class);
      List<String> unknown = unknownFields(object);
      if (!unknown.isEmpty()) {
        throw new AssertionError(
            object.getKind()
                + " "
                + object.getMetadata().getName()
                + " has fields its kind does not know: "
                + unknown);
      }
      read.add(object);
    }
    this.objects = List.copyOf(read);
  }

  static RenderedChart render(Map<String, Object> values) {
    return render(values, RELEASE);
  }

  static RenderedChart render(Map<String, Object> values, String release) {
    TemplateCommand template =
        new Helm(CHART).template().withName(release).withNamespace(NAMESPACE);
    for (Map.Entry<String, Object> e : values.entrySet()) {
      template = template.set(e.getKey(), e.getValue());
    }
    return new RenderedChart(template.call());
  }

  /** Renders with a values file (numbers read as YAML, as `helm install -f` reads them). */
  static RenderedChart render(Path valuesFile) {
    return new RenderedChart(
        new Helm(CHART)
            .template()
            .withName(RELEASE)
            .withNamespace(NAMESPACE)
            .withValuesFile(valuesFile)
            .call());
  }

  static RenderedChart render() {
    return render(minimalValues());
  }

  /**
   * The install notes as {@code helm install} renders them, for {@code values}: NOTES.txt is
   * rendered by the same template engine as the chart's objects, so a copy of the chart renders it
   * as a named template into a ConfigMap ({@code helm template} leaves NOTES.txt out, and a dry-run
   * install needs a cluster).
   */
  static String notes(Map<String, Object> values) {
    return notes(values, RELEASE);
  }

  /** The install notes of a release of the given name. */
  static String notes(Map<String, Object> values, String release) {
    try {
      Path copy = Files.createTempDirectory("cairn-notes").resolve("cairn");
      copyTree(RenderedChart.CHART, copy);
      Path notes = copy.resolve("templates/NOTES.txt");
      Files.writeString(
          copy.resolve("templates/_notes_test.tpl"),
          "{{- define \"cairn.notesTest\" -}}\n" + Files.readString(notes) + "\n{{- end -}}\n");
      Files.delete(notes);
      Files.writeString(
          copy.resolve("templates/notes-test.yaml"),
          "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes-test\n  labels:\n"
              + "    app.kubernetes.io/part-of: cairn\n"
              + "data:\n  notes: {{ include \"cairn.notesTest\" . | quote }}\n");
      TemplateCommand template =
          new Helm(copy).template().withName(release).withNamespace(NAMESPACE);
      for (Map.Entry<String, Object> e : values.entrySet()) {
        template = template.set(e.getKey(), e.getValue());
      }
      for (Object doc : new Yaml().loadAll(template.call())) {
        if (doc instanceof Map<?, ?> m
            && "notes-test".equals(((Map<?, ?>) m.get("metadata")).get("name"))) {
          return (String) ((Map<?, ?>) m.get("data")).get("notes");
        }
      }
      throw new AssertionError("the notes were not rendered");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (var paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  /** The message Helm fails with for these values. */
  static String failure(Map<String, Object> values) {
    try {
      render(values);
    } catch (IllegalStateException e) {
      return e.getMessage();
    }
    throw new AssertionError("rendered without an error: " + values);
  }

  <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  <T extends HasMetadata> T get(Class<T> type, String name) {
    return all(type).stream()
        .filter(o -> o.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(
            () -> new NoSuchElementException("no " + type.getSimpleName() + " named " + name));
  }

  List<GenericKubernetesResource> generic(String kind) {
    return all(GenericKubernetesResource.class).stream()
        .filter(o -> o.getKind().equals(kind))
        .toList();
  }

  Deployment deployment(String service) {
    return get(Deployment.class, RELEASE + "-" + service);
  }

  /** The {@code <service>.yaml} the chart writes for a service, as a map. */
  Map<String, Object> settings(String service) {
    String text = get(ConfigMap.class, RELEASE + "-" + service).getData().get(service + ".yaml");
    return new Yaml().load(text);
  }

  String settingsText(String service) {
    return settingsText(service, RELEASE);
  }

  String settingsText(String service, String release) {
    return get(ConfigMap.class, release + "-" + service).getData().get(service + ".yaml");
  }

  /**
   * The paths of fields that fabric8 kept in {@code additionalProperties}: keys the kind's schema
   * does not have. Custom resources of kinds fabric8 does not model are not checked.
   */
  static List<String> unknownFields(Object object) {
    List<String> found = new ArrayList<>();
    walk(object, object.getClass().getSimpleName(), found);
    return found;
  }

  private static void walk(Object value, String path, List<String> found) {
    if (value == null || value instanceof GenericKubernetesResource) {
      return;
    }
    if (value instanceof Collection<?> c) {
      int i = 0;
      for (Object item : c) {
        walk(item, path + "[" + i++ + "]", found);
      }
      return;
    }
    if (value instanceof Map<?, ?> m) {
      m.forEach((k, v) -> walk(v, path + "." + k, found));
      return;
    }
    if (!(value instanceof KubernetesResource)) {
      return;
    }
    for (Method m : value.getClass().getMethods()) {
      if (m.getParameterCount() != 0
          || Modifier.isStatic(m.getModifiers())
          || !m.getName().startsWith("get")
          || m.getDeclaringClass() == Object.class) {
        continue;
      }
      Object child;
      try {
        child = m.invoke(value);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      if (m.getName().equals("getAdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          extra.keySet().forEach(k -> found.add(path + "." + k));
        }
      } else {
        walk(child, path + "." + decapitalize(m.getName().substring(3)), found);
      }
    }
  }

  private static String decapitalize(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }
}
