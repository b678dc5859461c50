package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import java.util.Map;

/**
 * {@code Gslb.spec.strategy}, as written (defaults are applied by the engine, not here).
 *
 * @param type {@code roundRobin}, {@code failover} or {@code geoip}
 * @param dnsTtlSeconds the record TTL; {@code null} or 0 means the default (30)
 * @param primaryGeoTag the primary cluster's geo tag, for failover
 * @param weight geo tag to weight (0..1000), for roundRobin
 * @param splitBrainThresholdSeconds how long an unreachable peer's last answer is trusted
 */
public record GslbStrategy(
    String type,
    Integer dnsTtlSeconds,
    String primaryGeoTag,
    Map<String, Integer> weight,
    Integer splitBrainThresholdSeconds) {

  public GslbStrategy {
    weight = Copies.sortedMap(weight);
  }
}
