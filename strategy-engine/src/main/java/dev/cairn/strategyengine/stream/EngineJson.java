package dev.cairn.strategyengine.stream;

import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.codec.CairnDeserializer;
import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.commonmodel.codec.CairnSerializer;
import dev.cairn.commonmodel.codec.SchemaVersion;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.function.BiFunction;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.Version;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.ValueInstantiators;
import tools.jackson.databind.deser.std.StdValueInstantiator;
import tools.jackson.databind.ext.javatime.deser.InstantDeserializer;
import tools.jackson.databind.introspect.AnnotatedConstructor;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * Cairn's JSON ({@link CairnJson}) as the engine reads and writes it: the same settings, so the
 * same bytes in and out, with two costs of Jackson 3 removed from the engine's hot path. Records
 * are created through their canonical constructor by reflection instead of {@code
 * MethodHandle.invokeWithArguments} (which builds a spreader on every call), and instants in the
 * form Cairn writes them ({@code 2026-11-29T12:00:00Z}, optional fraction) are read without a
 * {@code DateTimeFormatter}; any other form goes to Jackson's own reader. Every contract topic the
 * engine reads or writes, and every store, goes through {@link CairnSerializer} and {@link
 * CairnDeserializer} with this mapper, so schema-version headers and malformed-record handling are
 * unchanged.
 */
final class EngineJson {

  private static final JsonMapper MAPPER =
      CairnJson.newMapper()
          .rebuild()
          .addModule(new CanonicalConstructors())
          .addModule(
              new SimpleModule("cairn-engine-instants")
                  .addDeserializer(Instant.class, new Instants()))
          .build();

  private EngineJson() {}

  /** The engine's mapper (thread-safe). */
  static JsonMapper mapper() {
    return MAPPER;
  }

  /** The serde of a contract topic's value type. */
  static <V> Serde<V> serde(TopicSpec<V> topic) {
    return serde(topic.valueType());
  }

  /** The serde of a record type. */
  static <V> Serde<V> serde(Class<V> type) {
    return Serdes.serdeFrom(
        new CairnSerializer<>(MAPPER), new Decoder<>(new CairnDeserializer<>(type, MAPPER)));
  }

  /** {@code value} as Cairn JSON bytes, {@code null} for {@code null}. */
  static byte[] encode(Object value) {
    if (value == null) {
      return null;
    }
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("cannot encode " + value.getClass().getSimpleName(), e);
    }
  }

  /**
   * The serde of a topic read with its bytes kept ({@link TopologyInput.Received}, {@link
   * PeerAnswerStoreProcessor.Received}): the value is decoded as {@link #serde(TopicSpec)} decodes
   * it (same schema-version checks, same malformed-record errors) and handed over with the bytes it
   * arrived as, a tombstone as {@code made(null, null)}. Never used to write.
   */
  static <V, R> Serde<R> received(TopicSpec<V> topic, BiFunction<V, byte[], R> made) {
    Deserializer<V> decoder = serde(topic).deserializer();
    Deserializer<R> deserializer =
        new Deserializer<>() {
          @Override
          public R deserialize(String name, byte[] data) {
            return made.apply(decoder.deserialize(name, data), data);
          }

          @Override
          public R deserialize(String name, Headers headers, byte[] data) {
            return made.apply(decoder.deserialize(name, headers, data), data);
          }
        };
    Serializer<R> never =
        (name, input) -> {
          throw new UnsupportedOperationException(
              "values read with their bytes are never written (" + topic.name() + ")");
        };
    return Serdes.serdeFrom(never, deserializer);
  }

  /**
   * {@link #received(TopicSpec, BiFunction)} for a value passed on through a repartition topic (the
   * Gateways' broadcast): written as the bytes it arrived as (the record's headers, the schema
   * version among them, go with it), read back as it was first read; a tombstone stays one.
   */
  static <V> Serde<TopologyInput> passedOn(
      TopicSpec<V> topic, BiFunction<V, byte[], TopologyInput.Received<V>> made) {
    Serializer<TopologyInput> asReceived =
        (name, input) -> input == null ? null : ((TopologyInput.Received<?>) input).encoded();
    Serde<TopologyInput> asRead = received(topic, made::apply);
    return Serdes.serdeFrom(asReceived, asRead.deserializer());
  }

  /**
   * {@link CairnDeserializer}, with the schema-version header of the version this build writes
   * recognised by its bytes: {@code SchemaVersion.parse} matches a regular expression it compiles
   * on every call, once per input record. Any other header goes through {@link CairnDeserializer}'s
   * own check, so the outcome is the same.
   */
  private static final class Decoder<V> implements Deserializer<V> {

    private static final byte[] CURRENT = SchemaVersion.CURRENT.toHeader();

    private final CairnDeserializer<V> cairn;

    Decoder(CairnDeserializer<V> cairn) {
      this.cairn = cairn;
    }

    @Override
    public V deserialize(String topic, byte[] data) {
      return cairn.deserialize(topic, data);
    }

    @Override
    public V deserialize(String topic, Headers headers, byte[] data) {
      Header header = headers == null ? null : headers.lastHeader(SchemaVersion.HEADER);
      if (header != null && !Arrays.equals(header.value(), CURRENT)) {
        return cairn.deserialize(topic, headers, data);
      }
      return cairn.deserialize(topic, data);
    }
  }

  /**
   * The serde of the processor's outputs as published: each output's bytes, already encoded with
   * this mapper ({@link EncodedStore}), written as they are, with the schema-version header {@link
   * CairnSerializer} adds; {@code null} bytes are a tombstone. Sink only: outputs are never read
   * back through it.
   */
  static Serde<EngineOutput> outputs() {
    return Serdes.serdeFrom(
        new Outputs(),
        (topic, bytes) -> {
          throw new UnsupportedOperationException("engine outputs are only written");
        });
  }

  /** Writes an output's bytes as they are and stamps the header as {@link CairnSerializer} does. */
  private static final class Outputs implements Serializer<EngineOutput> {

    @Override
    public byte[] serialize(String topic, EngineOutput output) {
      return output == null ? null : output.value();
    }

    @Override
    public byte[] serialize(String topic, Headers headers, EngineOutput output) {
      if (headers != null) {
        headers.remove(SchemaVersion.HEADER);
        headers.add(SchemaVersion.HEADER, SchemaVersion.CURRENT.toHeader());
      }
      return serialize(topic, output);
    }
  }

  /** Replaces the creator of every record deserialised through its canonical constructor. */
  private static final class CanonicalConstructors extends JacksonModule {

    @Override
    public String getModuleName() {
      return "cairn-engine-canonical-constructors";
    }

    @Override
    public Version version() {
      return Version.unknownVersion();
    }

    @Override
    public void setupModule(SetupContext context) {
      context.addValueInstantiators(
          new ValueInstantiators() {
            @Override
            public ValueInstantiator findValueInstantiator(
                DeserializationConfig config, BeanDescription.Supplier bean) {
              return null;
            }

            @Override
            public ValueInstantiator modifyValueInstantiator(
                DeserializationConfig config,
                BeanDescription.Supplier bean,
                ValueInstantiator found) {
              if (bean.isRecordType()
                  && found.getClass() == StdValueInstantiator.class
                  && found.canCreateFromObjectWith()
                  && found.getWithArgsCreator() instanceof AnnotatedConstructor creator
                  && creator.getAnnotated().trySetAccessible()) {
                return new ReflectiveInstantiator(
                    (StdValueInstantiator) found, creator.getAnnotated());
              }
              return found;
            }
          });
    }
  }

  /** Jackson's instantiator with the constructor called through {@link Constructor}. */
  private static final class ReflectiveInstantiator extends StdValueInstantiator {

    private final Constructor<?> constructor;

    ReflectiveInstantiator(StdValueInstantiator source, Constructor<?> constructor) {
      super(source);
      this.constructor = constructor;
    }

    @Override
    public Object createFromObjectWith(DeserializationContext context, Object[] args) {
      try {
        return constructor.newInstance(args);
      } catch (InvocationTargetException e) {
        return context.handleInstantiationProblem(
            _valueClass, args, rewrapCtorProblem(context, e.getCause()));
      } catch (ReflectiveOperationException | IllegalArgumentException e) {
        return context.handleInstantiationProblem(_valueClass, args, rewrapCtorProblem(context, e));
      }
    }
  }

  /**
   * Reads {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} directly; everything else (offsets, numbers, a
   * malformed value) goes to Jackson's {@link InstantDeserializer#INSTANT}, so the results and the
   * errors are Jackson's.
   */
  private static final class Instants extends ValueDeserializer<Instant> {

    private final ValueDeserializer<?> jackson;

    Instants() {
      this(InstantDeserializer.INSTANT);
    }

    private Instants(ValueDeserializer<?> jackson) {
      this.jackson = jackson;
    }

    @Override
    public ValueDeserializer<?> createContextual(
        DeserializationContext context, BeanProperty property) {
      return new Instants(jackson.createContextual(context, property));
    }

    @Override
    public Instant deserialize(JsonParser parser, DeserializationContext context)
        throws JacksonException {
      if (parser.currentToken() == JsonToken.VALUE_STRING) {
        Instant parsed = parse(parser.getString());
        if (parsed != null) {
          return parsed;
        }
      }
      return (Instant) jackson.deserialize(parser, context);
    }

    /** The instant, or {@code null} when the text is not in the plain UTC form. */
    static Instant parse(String text) {
      int length = text.length();
      if (length < 20
          || length == 21
          || length > 30
          || text.charAt(4) != '-'
          || text.charAt(7) != '-'
          || text.charAt(10) != 'T'
          || text.charAt(13) != ':'
          || text.charAt(16) != ':'
          || text.charAt(length - 1) != 'Z') {
        return null;
      }
      int year = digits(text, 0, 4);
      int month = digits(text, 5, 7);
      int day = digits(text, 8, 10);
      int hour = digits(text, 11, 13);
      int minute = digits(text, 14, 16);
      int second = digits(text, 17, 19);
      int nanos = 0;
      if (length > 20) {
        if (text.charAt(19) != '.') {
          return null;
        }
        int fraction = digits(text, 20, length - 1);
        if (fraction < 0) {
          return null;
        }
        nanos = fraction;
        for (int i = length - 1 - 20; i < 9; i++) {
          nanos *= 10;
        }
      } else if (text.charAt(19) != 'Z') {
        return null;
      }
      if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
        return null;
      }
      try {
        return LocalDate.of(year, month, day)
            .atTime(LocalTime.of(hour, minute, second, nanos))
            .toInstant(ZoneOffset.UTC);
      } catch (DateTimeException e) {
        return null; // out of range: Jackson's reader says why
      }
    }

    /** The decimal value of {@code text[from, to)}, or -1 unless it is all ASCII digits. */
    private static int digits(String text, int from, int to) {
      int value = 0;
      for (int i = from; i < to; i++) {
        char c = text.charAt(i);
        if (c < '0' || c > '9') {
          return -1;
        }
        value = value * 10 + (c - '0');
      }
      return value;
    }
  }
}
