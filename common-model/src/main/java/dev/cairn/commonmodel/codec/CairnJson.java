package dev.cairn.commonmodel.codec;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.cfg.DateTimeFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON configuration of Cairn (Jackson 3). Every service encodes and decodes contract
 * records through a mapper built here, so the wire format cannot drift between services.
 *
 * <ul>
 *   <li>{@code Instant} as ISO-8601 text ({@code 2026-11-29T12:00:00Z}); units are in field names
 *       ({@code ttlSeconds});
 *   <li>{@code null} fields are left out; empty lists and maps are written;
 *   <li>unknown properties are ignored (minor versions add fields);
 *   <li>map entries are sorted by key, so equal state gives equal bytes;
 *   <li>only record components are written: derived {@code isX()} methods ({@code
 *       BackendRef.isService()}, {@code EndpointState.isReady()}) are not properties;
 *   <li>property names are not canonicalized ({@link #factory()}).
 * </ul>
 */
public final class CairnJson {

  private CairnJson() {}

  /**
   * The JSON factory of every Cairn mapper: Jackson's defaults, but parsers do not canonicalize
   * property names. Canonicalizing keeps every property name seen in a table shared by the parsers,
   * which pays off for a fixed set of names; Cairn's records and Kubernetes objects have maps keyed
   * by host names and addresses (a Gslb status's {@code serviceHealth} and {@code healthyRecords}),
   * so with 10k Gslbs the table never stops growing, and every parse that met a new name copied it
   * first: 307 kB allocated and 52 us to decode one Gslb status, against 5.6 kB and 6-7 us without
   * (docs/benchmarks.md, "JSON property names").
   */
  public static JsonFactory factory() {
    return JsonFactory.builder()
        .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
        .build();
  }

  /**
   * A mapper builder for fabric8's {@code KubernetesSerialization}: the Jackson 2 defaults fabric8
   * builds its own mapper with, on a factory that does not canonicalize property names ({@link
   * #factory()}: Gslb statuses and DNSEndpoint labels hold host names and addresses as keys). Add
   * fabric8's {@code Jackson2JdkTypesModule}, as fabric8 does, and pass the mapper to {@code new
   * KubernetesSerialization(mapper, true)}.
   */
  public static JsonMapper.Builder kubernetesMapperBuilder() {
    return (JsonMapper.Builder)
        JsonMapper.builder(
                JsonFactory.builderWithJackson2Defaults()
                    .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
                    .build())
            .configureForJackson2();
  }

  /** A new mapper with Cairn's settings; mappers are thread-safe, build one per component. */
  public static JsonMapper newMapper() {
    return newMapper(factory());
  }

  /**
   * A new mapper with Cairn's settings on another factory (the codec benchmark compares Jackson's
   * default, canonicalizing factory with {@link #factory()}).
   */
  public static JsonMapper newMapper(JsonFactory factory) {
    return JsonMapper.builder(factory)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
        .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(DateTimeFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
        .changeDefaultPropertyInclusion(
            incl -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
        // Without this, isReady() would replace the ready component (null written as true) and
        // isService() would add a "service" field to the wire format.
        .changeDefaultVisibility(vc -> vc.withIsGetterVisibility(JsonAutoDetect.Visibility.NONE))
        .build();
  }
}
