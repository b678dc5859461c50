package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.validation.IpLiteral.Family;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A Gslb strategy ({@code spec.strategy.type}): which clusters' targets a host record holds, and
 * the endpoint labels that tell the DNS responder how to serve them. One class per strategy; the
 * decision table they implement is k8gb's (k8gb.md §6), with "this cluster serves the host" meaning
 * Healthy <em>and</em> at least one local target.
 */
sealed interface Strategy permits RoundRobin, Failover, GeoIp {

  /** The endpoint label naming the strategy, as k8gb writes it. */
  String STRATEGY_LABEL = "strategy";

  /** The strategy's spelling in {@code spec.strategy.type} and in the {@code strategy} label. */
  String type();

  /**
   * Chooses the targets of a host.
   *
   * @param me this cluster's geo tag
   * @param serving whether this cluster serves the host (Healthy with local targets)
   * @param local this cluster's targets
   * @param peers the peers that serve the host, by geo tag (never {@code me})
   */
  Selection select(
      String me, boolean serving, TagTargets local, SortedMap<String, TagTargets> peers);

  /**
   * The endpoint labels of the host record of one address family.
   *
   * @param chosen the selection's targets
   * @param family the record's family
   * @param notes where remarks for the explanation go (e.g. a geo tag without a weight)
   */
  Map<String, String> labels(
      SortedMap<String, TagTargets> chosen, Family family, List<String> notes);

  /** The labels of a record that carries only the strategy's name, sorted and unmodifiable. */
  static SortedMap<String, String> labelsOf(String type) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(Map.of(STRATEGY_LABEL, type)));
  }

  /** roundRobin and geoip: own targets (if serving) plus every serving peer's. */
  static Selection union(
      String me, boolean serving, TagTargets local, SortedMap<String, TagTargets> peers) {
    SortedMap<String, TagTargets> chosen = new TreeMap<>();
    chosen.putAll(peers);
    if (serving) {
      chosen.putIfAbsent(me, local); // a peer's entry under this cluster's tag wins, as in putAll
    }
    return new Selection(peers.isEmpty() ? Branch.NO_PEERS : Branch.ALL_CLUSTERS, chosen);
  }
}
