package dev.cairn.localstack;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the protobuf bodies kubectl sends for built-in kinds, as JSON. kubectl's own generators
 * ({@code kubectl create namespace|configmap|service|ingress}) write with the typed clients, which
 * send {@code application/vnd.kubernetes.protobuf} and do not fall back to JSON on a 415; the mock
 * API's store reads JSON. This decodes the envelope ({@code k8s\0} and a {@code runtime.Unknown})
 * and the object of the kinds those generators create and the mock serves: Namespace, ConfigMap,
 * Service and Ingress, with the field numbers of Kubernetes' {@code generated.proto}. A field the
 * schema here does not know is left out; a zero value (empty string, 0, false, empty message) is
 * left out as the JSON encoding's {@code omitempty} does.
 */
final class ProtobufBodies {

  static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";

  private static final byte[] MAGIC = {'k', '8', 's', 0};
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ProtobufBodies() {}

  /** Whether a request's {@code Content-Type} is Kubernetes' protobuf. */
  static boolean isProtobuf(String contentType) {
    return contentType != null && contentType.strip().startsWith(CONTENT_TYPE);
  }

  /** A body this class cannot read: the message says what it can. */
  static final class UnsupportedBody extends RuntimeException {
    UnsupportedBody(String message) {
      super(message);
    }
  }

  /**
   * The object in a protobuf body, as JSON.
   *
   * @throws UnsupportedBody when it is not an envelope or holds a kind not decoded here
   */
  static ObjectNode toJson(byte[] body) {
    if (body.length < MAGIC.length
        || !java.util.Arrays.equals(body, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new UnsupportedBody("not a Kubernetes protobuf body (no k8s\\0 prefix)");
    }
    Reader envelope = new Reader(body, MAGIC.length, body.length);
    String apiVersion = "";
    String kind = "";
    Reader raw = null;
    while (envelope.more()) {
      int tag = envelope.tag();
      if (tag >>> 3 == 1 && (tag & 7) == 2) {
        Reader typeMeta = envelope.message();
        while (typeMeta.more()) {
          int t = typeMeta.tag();
          if (t >>> 3 == 1 && (t & 7) == 2) {
            apiVersion = typeMeta.string();
          } else if (t >>> 3 == 2 && (t & 7) == 2) {
            kind = typeMeta.string();
          } else {
            typeMeta.skip(t);
          }
        }
      } else if (tag >>> 3 == 2 && (tag & 7) == 2) {
        raw = envelope.message();
      } else {
        envelope.skip(tag);
      }
    }
    Message schema = KINDS.get(apiVersion + "/" + kind);
    if (schema == null || raw == null) {
      throw new UnsupportedBody(
          "the mock API reads protobuf bodies of Namespace, ConfigMap, Service and Ingress only,"
              + " not of "
              + (kind.isEmpty() ? "this one" : apiVersion + " " + kind)
              + "; send it as JSON or YAML (kubectl create -f, kubectl apply -f)");
    }
    ObjectNode object = NODES.objectNode();
    object.put("apiVersion", apiVersion);
    object.put("kind", kind);
    decode(raw, schema, object);
    return object;
  }

  // ---- schemas -------------------------------------------------------------------------------

  /** How a field is encoded. */
  private enum Type {
    STRING,
    INT,
    BOOL,
    /** A pointer field in Go: present means set, even when zero. */
    OPTIONAL_BOOL,
    MESSAGE,
    /** A message whose fields the JSON encoding puts in its parent ({@code json:",inline"}). */
    INLINE,
    STRING_MAP,
    BYTES_MAP,
    INT_OR_STRING,
    TIME
  }

  private record Field(String name, Type type, boolean repeated, Message message) {}

  /** A message: its fields by number. */
  private record Message(Map<Integer, Field> fields) {}

  private static Field string(String name) {
    return new Field(name, Type.STRING, false, null);
  }

  private static Field strings(String name) {
    return new Field(name, Type.STRING, true, null);
  }

  private static Field integer(String name) {
    return new Field(name, Type.INT, false, null);
  }

  private static Field bool(String name) {
    return new Field(name, Type.BOOL, false, null);
  }

  private static Field optionalBool(String name) {
    return new Field(name, Type.OPTIONAL_BOOL, false, null);
  }

  private static Field message(String name, Message m) {
    return new Field(name, Type.MESSAGE, false, m);
  }

  private static Field messages(String name, Message m) {
    return new Field(name, Type.MESSAGE, true, m);
  }

  private static Field of(String name, Type type) {
    return new Field(name, type, false, null);
  }

  private static final Message OWNER_REFERENCE =
      new Message(
          Map.of(
              5, string("apiVersion"),
              1, string("kind"),
              3, string("name"),
              4, string("uid"),
              6, optionalBool("controller"),
              7, optionalBool("blockOwnerDeletion")));

  private static final Message OBJECT_META =
      new Message(
          Map.ofEntries(
              Map.entry(1, string("name")),
              Map.entry(2, string("generateName")),
              Map.entry(3, string("namespace")),
              Map.entry(5, string("uid")),
              Map.entry(6, string("resourceVersion")),
              Map.entry(7, integer("generation")),
              Map.entry(8, of("creationTimestamp", Type.TIME)),
              Map.entry(11, of("labels", Type.STRING_MAP)),
              Map.entry(12, of("annotations", Type.STRING_MAP)),
              Map.entry(13, messages("ownerReferences", OWNER_REFERENCE)),
              Map.entry(14, strings("finalizers"))));

  private static final Message NAMESPACE =
      new Message(
          Map.of(
              1, message("metadata", OBJECT_META),
              2, message("spec", new Message(Map.of(1, strings("finalizers")))),
              3, message("status", new Message(Map.of(1, string("phase"))))));

  private static final Message CONFIG_MAP =
      new Message(
          Map.of(
              1, message("metadata", OBJECT_META),
              2, of("data", Type.STRING_MAP),
              3, of("binaryData", Type.BYTES_MAP),
              4, optionalBool("immutable")));

  private static final Message SERVICE_PORT =
      new Message(
          Map.of(
              1, string("name"),
              2, string("protocol"),
              3, integer("port"),
              4, of("targetPort", Type.INT_OR_STRING),
              5, integer("nodePort"),
              6, string("appProtocol")));

  private static final Message SERVICE =
      new Message(
          Map.of(
              1,
              message("metadata", OBJECT_META),
              2,
              message(
                  "spec",
                  new Message(
                      Map.ofEntries(
                          Map.entry(1, messages("ports", SERVICE_PORT)),
                          Map.entry(2, of("selector", Type.STRING_MAP)),
                          Map.entry(3, string("clusterIP")),
                          Map.entry(4, string("type")),
                          Map.entry(5, strings("externalIPs")),
                          Map.entry(7, string("sessionAffinity")),
                          Map.entry(8, string("loadBalancerIP")),
                          Map.entry(9, strings("loadBalancerSourceRanges")),
                          Map.entry(10, string("externalName")),
                          Map.entry(11, string("externalTrafficPolicy")),
                          Map.entry(12, integer("healthCheckNodePort")),
                          Map.entry(13, bool("publishNotReadyAddresses")),
                          Map.entry(17, string("ipFamilyPolicy")),
                          Map.entry(18, strings("clusterIPs")),
                          Map.entry(19, strings("ipFamilies")),
                          Map.entry(20, optionalBool("allocateLoadBalancerNodePorts")),
                          Map.entry(21, string("loadBalancerClass")),
                          Map.entry(22, string("internalTrafficPolicy")))))));

  private static final Message INGRESS_BACKEND =
      new Message(
          Map.of(
              3,
              message(
                  "resource",
                  new Message(Map.of(1, string("apiGroup"), 2, string("kind"), 3, string("name")))),
              4,
              message(
                  "service",
                  new Message(
                      Map.of(
                          1,
                          string("name"),
                          2,
                          message(
                              "port",
                              new Message(Map.of(1, string("name"), 2, integer("number")))))))));

  private static final Message HTTP_INGRESS_PATH =
      new Message(
          Map.of(
              1, string("path"),
              2, message("backend", INGRESS_BACKEND),
              3, string("pathType")));

  /** IngressRuleValue, inlined in the rule: {@code http.paths}. */
  private static final Message INGRESS_RULE_VALUE =
      new Message(
          Map.of(1, message("http", new Message(Map.of(1, messages("paths", HTTP_INGRESS_PATH))))));

  private static final Message INGRESS_RULE =
      new Message(
          Map.of(
              1,
              string("host"),
              2,
              new Field("ingressRuleValue", Type.INLINE, false, INGRESS_RULE_VALUE)));

  private static final Message INGRESS_SPEC =
      new Message(
          Map.of(
              1, message("defaultBackend", INGRESS_BACKEND),
              2, messages("tls", new Message(Map.of(1, strings("hosts"), 2, string("secretName")))),
              3, messages("rules", INGRESS_RULE),
              4, string("ingressClassName")));

  private static final Message INGRESS =
      new Message(
          Map.of(
              1, message("metadata", OBJECT_META),
              2, message("spec", INGRESS_SPEC)));

  /** {@code apiVersion/kind} → schema. */
  private static final Map<String, Message> KINDS =
      Map.of(
          "v1/Namespace", NAMESPACE,
          "v1/ConfigMap", CONFIG_MAP,
          "v1/Service", SERVICE,
          "networking.k8s.io/v1/Ingress", INGRESS);

  // ---- decoding ------------------------------------------------------------------------------

  private static void decode(Reader in, Message schema, ObjectNode out) {
    while (in.more()) {
      int tag = in.tag();
      Field field = schema.fields().get(tag >>> 3);
      if (field == null) {
        in.skip(tag);
        continue;
      }
      int wire = tag & 7;
      boolean number =
          field.type() == Type.INT
              || field.type() == Type.BOOL
              || field.type() == Type.OPTIONAL_BOOL;
      if (wire != (number ? 0 : 2)) {
        in.skip(tag);
        continue;
      }
      switch (field.type()) {
        case STRING -> {
          String s = in.string();
          if (field.repeated()) {
            array(out, field.name()).add(s);
          } else if (!s.isEmpty()) {
            out.put(field.name(), s);
          }
        }
        case INT -> {
          long v = in.varint(wire);
          if (v != 0) {
            out.set(field.name(), number(v));
          }
        }
        case BOOL -> {
          if (in.varint(wire) != 0) {
            out.put(field.name(), true);
          }
        }
        case OPTIONAL_BOOL -> out.put(field.name(), in.varint(wire) != 0);
        case MESSAGE -> {
          ObjectNode child = NODES.objectNode();
          decode(in.message(), field.message(), child);
          if (field.repeated()) {
            array(out, field.name()).add(child);
          } else if (!child.isEmpty()) {
            out.set(field.name(), child);
          }
        }
        case INLINE -> decode(in.message(), field.message(), out);
        case STRING_MAP, BYTES_MAP -> {
          Reader entry = in.message();
          String key = "";
          String value = "";
          while (entry.more()) {
            int t = entry.tag();
            if (t >>> 3 == 1) {
              key = entry.string();
            } else if (t >>> 3 == 2) {
              value =
                  field.type() == Type.BYTES_MAP
                      ? Base64.getEncoder().encodeToString(entry.bytes())
                      : entry.string();
            } else {
              entry.skip(t);
            }
          }
          ObjectNode map =
              out.has(field.name())
                  ? (ObjectNode) out.get(field.name())
                  : out.putObject(field.name());
          map.put(key, value);
        }
        case INT_OR_STRING -> intOrString(in.message()).ifPresent(v -> out.set(field.name(), v));
        case TIME -> {
          Reader time = in.message();
          long seconds = 0;
          long nanos = 0;
          while (time.more()) {
            int t = time.tag();
            if (t >>> 3 == 1) {
              seconds = time.varint(t & 7);
            } else if (t >>> 3 == 2) {
              nanos = time.varint(t & 7);
            } else {
              time.skip(t);
            }
          }
          if (seconds != 0) {
            out.put(field.name(), Instant.ofEpochSecond(seconds, nanos).toString());
          }
        }
        default -> in.skip(tag);
      }
    }
  }

  private static Optional<tools.jackson.databind.JsonNode> intOrString(Reader in) {
    long type = 0;
    long intValue = 0;
    String stringValue = "";
    while (in.more()) {
      int t = in.tag();
      switch (t >>> 3) {
        case 1 -> type = in.varint(t & 7);
        case 2 -> intValue = in.varint(t & 7);
        case 3 -> stringValue = in.string();
        default -> in.skip(t);
      }
    }
    if (type == 1) {
      return Optional.of(NODES.stringNode(stringValue));
    }
    return intValue == 0 ? Optional.empty() : Optional.of(number(intValue));
  }

  /** An int32 field as an int, an int64 one as a long when it needs to be. */
  private static tools.jackson.databind.JsonNode number(long v) {
    return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
  }

  private static ArrayNode array(ObjectNode out, String name) {
    return out.has(name) ? (ArrayNode) out.get(name) : out.putArray(name);
  }

  /** Protobuf's wire format, over a slice of a byte array. */
  private static final class Reader {
    private final byte[] bytes;
    private int at;
    private final int end;

    Reader(byte[] bytes, int from, int end) {
      this.bytes = bytes;
      this.at = from;
      this.end = end;
    }

    boolean more() {
      return at < end;
    }

    int tag() {
      return (int) rawVarint();
    }

    long varint(int wire) {
      if (wire != 0) {
        throw new UnsupportedBody("malformed protobuf body: a number with wire type " + wire);
      }
      return rawVarint();
    }

    private long rawVarint() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= end) {
          throw new UnsupportedBody("malformed protobuf body: truncated");
        }
        byte b = bytes[at++];
        value |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return value;
        }
      }
      throw new UnsupportedBody("malformed protobuf body: varint too long");
    }

    Reader message() {
      int length = length();
      Reader r = new Reader(bytes, at, at + length);
      at += length;
      return r;
    }

    byte[] bytes() {
      int length = length();
      byte[] b = java.util.Arrays.copyOfRange(bytes, at, at + length);
      at += length;
      return b;
    }

    String string() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    private int length() {
      long length = rawVarint();
      if (length < 0 || length > end - at) {
        throw new UnsupportedBody("malformed protobuf body: a length past its end");
      }
      return (int) length;
    }

    void skip(int tag) {
      switch (tag & 7) {
        case 0 -> rawVarint();
        case 1 -> advance(8);
        case 2 -> advance(length());
        case 5 -> advance(4);
        default -> throw new UnsupportedBody("malformed protobuf body: wire type " + (tag & 7));
      }
    }

    private void advance(int n) {
      if (n > end - at) {
        throw new UnsupportedBody("malformed protobuf body: truncated");
      }
      at += n;
    }
  }
}
