package dev.cairn.commonmodel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.GoldenRecords.Golden;
import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.commonmodel.codec.CairnSerde;
import dev.cairn.commonmodel.codec.MalformedRecordException;
import dev.cairn.commonmodel.codec.SchemaVersion;
import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.health.HostnameResolution;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.topology.GslbState;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.commonmodel.topology.SyncMarker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire format of every contract value, pinned by the golden files {@code
 * contracts/v1/<Record>.json}: a renamed, retyped or dropped field fails here.
 */
class ContractGoldenTest {

  private static final JsonMapper MAPPER = CairnJson.newMapper();

  static List<Golden> goldens() {
    return GoldenRecords.all();
  }

  @Test
  void thereIsOneGoldenFilePerTopicOfTheContract() {
    assertThat(goldens()).extracting(Golden::topic).containsExactlyElementsOf(Topics.ALL);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void goldenValueFillsEveryField(Golden golden) {
    assertThat(unfilledFields(golden.value(), golden.toString()))
        .as("fields left empty in the golden value; fill them so their format is pinned")
        .isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void goldenFileDecodesToTheExpectedValue(Golden golden) {
    Object decoded = decode(golden.topic(), golden(golden));

    assertThat(decoded).isEqualTo(golden.value());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void encodingTheExpectedValueGivesTheGoldenFile(Golden golden) {
    byte[] encoded = encode(golden.topic(), golden.value());

    assertThat(MAPPER.readTree(encoded)).isEqualTo(MAPPER.readTree(golden(golden)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void encodeThenDecodeIsIdentity(Golden golden) {
    Object once = decode(golden.topic(), encode(golden.topic(), golden.value()));
    Object twice = decode(golden.topic(), encode(golden.topic(), once));

    assertThat(once).isEqualTo(golden.value());
    assertThat(twice).isEqualTo(golden.value());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void goldenKeyIsTheKeyTheRecordNamesItself(Golden golden) {
    assertThat(keyOf(golden.value())).isEqualTo(golden.key());
  }

  static Stream<Arguments> everyFieldOfEveryGolden() {
    List<Arguments> cases = new ArrayList<>();
    for (Golden golden : goldens()) {
      for (String path : objectFieldPaths(MAPPER.readTree(golden(golden)), "")) {
        cases.add(Arguments.of(golden, path));
      }
    }
    return cases.stream();
  }

  /**
   * Consumers ignore unknown properties, so a rename is not an error when decoding: this proves the
   * golden test still notices it, for every field at every depth.
   */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("everyFieldOfEveryGolden")
  void renamingAnyFieldOfTheGoldenFileIsNoticed(Golden golden, String path) {
    JsonNode tree = MAPPER.readTree(golden(golden));
    renameField(tree, path);

    byte[] renamed = MAPPER.writeValueAsBytes(tree);

    // Either a required field goes missing (the record is rejected) or the value differs.
    Object decoded;
    try {
      decoded = decode(golden.topic(), renamed);
    } catch (MalformedRecordException e) {
      return;
    }
    assertThat(decoded).isNotEqualTo(golden.value());
  }

  /**
   * Schema 1.3 added the labels of routes and Services and an HTTPRoute's parentRefs; a record
   * written before reads as one without them.
   */
  @Test
  void aRouteOrServiceOfSchema12ReadsAsOneWithoutLabelsOrParents() {
    for (Golden golden : goldens()) {
      if (!(golden.value() instanceof RouteState) && !(golden.value() instanceof ServiceState)) {
        continue;
      }
      ObjectNode tree = (ObjectNode) MAPPER.readTree(golden(golden));
      tree.remove("labels");
      tree.remove("parentRefs");
      tree.remove("rules");
      RecordHeaders headers = new RecordHeaders();
      headers.add(SchemaVersion.HEADER, new SchemaVersion(1, 2).toHeader());

      Object decoded =
          CairnSerde.of(golden.topic())
              .deserializer()
              .deserialize(golden.topic().name(), headers, MAPPER.writeValueAsBytes(tree));

      Object expected =
          golden.value() instanceof RouteState r
              ? new RouteState(
                  r.kind(),
                  r.apiVersion(),
                  r.namespace(),
                  r.name(),
                  r.uid(),
                  r.hostnames(),
                  r.backends(),
                  r.loadBalancerIps(),
                  r.loadBalancerHostnames(),
                  r.annotations(),
                  r.problems(),
                  r.controller())
              : withoutLabels((ServiceState) golden.value());
      assertThat(decoded).as(golden.toString()).isEqualTo(expected);
    }
  }

  /** Schema 1.4 added an Ingress's rules; a route written before reads as one without them. */
  @Test
  void aRouteOfSchema13ReadsAsOneWithoutRules() {
    for (Golden golden : goldens()) {
      if (!(golden.value() instanceof RouteState r)) {
        continue;
      }
      ObjectNode tree = (ObjectNode) MAPPER.readTree(golden(golden));
      tree.remove("rules");
      RecordHeaders headers = new RecordHeaders();
      headers.add(SchemaVersion.HEADER, new SchemaVersion(1, 3).toHeader());

      Object decoded =
          CairnSerde.of(golden.topic())
              .deserializer()
              .deserialize(golden.topic().name(), headers, MAPPER.writeValueAsBytes(tree));

      assertThat(decoded)
          .as(golden.toString())
          .isEqualTo(
              new RouteState(
                  r.kind(),
                  r.apiVersion(),
                  r.namespace(),
                  r.name(),
                  r.uid(),
                  r.hostnames(),
                  r.backends(),
                  r.loadBalancerIps(),
                  r.loadBalancerHostnames(),
                  r.annotations(),
                  r.problems(),
                  r.controller(),
                  r.labels(),
                  r.parentRefs()));
      assertThat(((RouteState) decoded).rules()).isEmpty();
    }
  }

  private static ServiceState withoutLabels(ServiceState s) {
    return new ServiceState(
        s.namespace(),
        s.name(),
        s.uid(),
        s.type(),
        s.loadBalancerIps(),
        s.loadBalancerHostnames(),
        s.ports(),
        s.annotations(),
        s.problems());
  }

  private static Object decode(TopicSpec<?> topic, byte[] bytes) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(SchemaVersion.HEADER, SchemaVersion.CURRENT.toHeader());
    return CairnSerde.of(topic).deserializer().deserialize(topic.name(), headers, bytes);
  }

  @SuppressWarnings("unchecked")
  private static <V> byte[] encode(TopicSpec<V> topic, Object value) {
    return CairnSerde.of(topic)
        .serializer()
        .serialize(topic.name(), new RecordHeaders(), (V) value);
  }

  static byte[] golden(Golden golden) {
    try (InputStream in =
        ContractGoldenTest.class.getClassLoader().getResourceAsStream(golden.resource())) {
      assertThat(in).as("golden file %s", golden.resource()).isNotNull();
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String keyOf(Object value) {
    if (value instanceof RouteState v) {
      return v.ref().key();
    } else if (value instanceof ServiceState v) {
      return v.ref().key();
    } else if (value instanceof ServiceEndpoints v) {
      return v.ref().key();
    } else if (value instanceof NodeState v) {
      return v.ref().key();
    } else if (value instanceof GslbState v) {
      return v.ref().key();
    } else if (value instanceof SyncMarker) {
      return Topics.SYNC.key();
    } else if (value instanceof PeerAnswer v) {
      return v.key();
    } else if (value instanceof HostnameResolution v) {
      return v.key();
    } else if (value instanceof TargetDecision v) {
      return v.source().key();
    } else if (value instanceof GslbStatus v) {
      return v.ref().key();
    }
    throw new AssertionError("no key rule for " + value.getClass());
  }

  /** Paths ({@code /a/0/b}) of record components that are null or empty, recursively. */
  private static List<String> unfilledFields(Object value, String path) {
    List<String> unfilled = new ArrayList<>();
    if (value == null) {
      unfilled.add(path);
    } else if (value instanceof Collection<?> c) {
      if (c.isEmpty()) {
        unfilled.add(path);
      }
      int i = 0;
      for (Object element : c) {
        unfilled.addAll(unfilledFields(element, path + "/" + i++));
      }
    } else if (value instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        unfilled.add(path);
      }
      m.forEach((k, v) -> unfilled.addAll(unfilledFields(v, path + "/" + k)));
    } else if (value.getClass().isRecord()) {
      for (RecordComponent component : value.getClass().getRecordComponents()) {
        try {
          Object field = component.getAccessor().invoke(value);
          unfilled.addAll(unfilledFields(field, path + "/" + component.getName()));
        } catch (IllegalAccessException | InvocationTargetException e) {
          throw new AssertionError(e);
        }
      }
    }
    return unfilled;
  }

  /** JSON pointers of every property of every object in the tree, map entries excluded. */
  private static List<String> objectFieldPaths(JsonNode node, String path) {
    List<String> paths = new ArrayList<>();
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        String child = path + "/" + e.getKey();
        paths.add(child);
        if (!isMapField(e.getKey())) {
          paths.addAll(objectFieldPaths(e.getValue(), child));
        }
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        paths.addAll(objectFieldPaths(node.get(i), path + "/" + i));
      }
    }
    return paths;
  }

  /** Map-valued fields hold data keys, not field names; renaming those is a value change. */
  private static boolean isMapField(String name) {
    return List.of("annotations", "labels", "matchLabels", "weight", "objectCounts").contains(name);
  }

  private static void renameField(JsonNode tree, String path) {
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    JsonNode parent = slash == 0 ? tree : tree.at(path.substring(0, slash));
    ObjectNode object = (ObjectNode) parent;
    JsonNode value = object.remove(name);
    object.set("renamed_" + name, value);
  }
}
