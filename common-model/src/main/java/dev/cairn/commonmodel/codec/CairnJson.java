package dev.cairn.commonmodel.codec;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
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
 *       BackendRef.isService()}, {@code EndpointState.isReady()}) are not properties.
 * </ul>
 */
public final class CairnJson {

  private CairnJson() {}

  /** A new mapper with Cairn's settings; mappers are thread-safe, build one per component. */
  public static JsonMapper newMapper() {
    return JsonMapper.builder()
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
