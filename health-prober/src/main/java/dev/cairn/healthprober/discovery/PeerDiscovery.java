package dev.cairn.healthprober.discovery;

import dev.cairn.commonmodel.delegation.DelegationZone;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.healthprober.dns.DnsLookup;
import dev.cairn.healthprober.dns.EncodedQuery;
import dev.cairn.healthprober.peer.Peer;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.ProbeOutcome;
import dev.cairn.healthprober.probe.QueryResult;
import dev.cairn.healthprober.probe.RecordType;
import dev.cairn.healthprober.probe.ReplyClassifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Finds peers through zone delegation, as k8gb's ZoneDelegation controller does (k8gb.md §5), but
 * keeps every glue address and never lets a failed lookup drop a peer it knew.
 *
 * <ol>
 *   <li>Name servers per zone: the configured geo tags' {@link DelegationZone#nsName names}, or
 *       else the NS RRset of the load-balanced zone asked of the edge servers without recursion
 *       (the parent's referral), mapped back to geo tags with {@link DelegationZone#geoTagOf}.
 *   <li>Each name's A and AAAA records through the edge servers, tried in order until one answers.
 *   <li>A name that resolves becomes a peer with all its addresses at the peer port; a name that
 *       definitely has no address (NXDOMAIN, NODATA) is no peer; a lookup that got no answer keeps
 *       the peer as it was found last time.
 * </ol>
 */
public final class PeerDiscovery {

  private final DnsLookup lookup;
  private final List<DelegationZone> zones;
  private final String gluePrefix;
  private final List<String> geoTags;
  private final List<ServerAddress> edgeServers;
  private final int peerPort;
  private final String ownGeoTag;
  private final Duration timeout;
  private final int attemptsPerServer;

  /**
   * @param lookup the DNS lookup
   * @param zones the delegated zones
   * @param gluePrefix the name server name prefix
   * @param geoTags the peers' geo tags; empty to read the NS RRset
   * @param edgeServers the edge servers, in order
   * @param peerPort the peers' DNS port
   * @param ownGeoTag this cluster, never a peer
   * @param timeout per query
   * @param attemptsPerServer queries per edge server
   */
  public PeerDiscovery(
      DnsLookup lookup,
      List<DelegationZone> zones,
      String gluePrefix,
      List<String> geoTags,
      List<ServerAddress> edgeServers,
      int peerPort,
      String ownGeoTag,
      Duration timeout,
      int attemptsPerServer) {
    this.lookup = lookup;
    this.zones = List.copyOf(zones);
    this.gluePrefix = gluePrefix;
    this.geoTags = List.copyOf(geoTags);
    this.edgeServers = List.copyOf(edgeServers);
    this.peerPort = peerPort;
    this.ownGeoTag = ownGeoTag;
    this.timeout = timeout;
    this.attemptsPerServer = attemptsPerServer;
  }

  /**
   * Looks the peers up.
   *
   * @param previous the peers found last time per zone (kept when a lookup fails), may be empty
   * @return the peers per zone, what went wrong, and whether every lookup got an answer
   */
  public Result discover(Map<DelegationZone, Map<String, Peer>> previous) {
    Map<DelegationZone, Map<String, Peer>> found = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    int answered = 0;
    int unanswered = 0;
    for (DelegationZone zone : zones) {
      Map<String, Peer> before = previous.getOrDefault(zone, Map.of());
      Map<String, Peer> peers = new TreeMap<>();
      Optional<Map<String, String>> names = nameServers(zone, problems);
      if (names.isEmpty()) {
        unanswered++;
        problems.add(
            zone.loadBalancedZone() + ": NS lookup failed; keeping the peers found before");
        found.put(zone, new TreeMap<>(before));
        continue;
      }
      if (geoTags.isEmpty()) {
        answered++; // the NS RRset was read from an edge server
      }
      Map<String, CompletableFuture<ProbeOutcome>> lookups = new TreeMap<>();
      names.get().forEach((tag, ns) -> lookups.put(tag, addresses(ns)));
      for (Map.Entry<String, CompletableFuture<ProbeOutcome>> e : lookups.entrySet()) {
        String tag = e.getKey();
        String ns = names.get().get(tag);
        ProbeOutcome outcome = e.getValue().join();
        if (outcome.status() == ProbeStatus.OK) {
          answered++;
          List<ServerAddress> servers = new ArrayList<>();
          for (String ip : outcome.ipv4()) {
            servers.add(ServerAddress.of(IpLiteral.parse(ip).orElseThrow(), peerPort));
          }
          for (String ip : outcome.ipv6()) {
            servers.add(ServerAddress.of(IpLiteral.parse(ip).orElseThrow(), peerPort));
          }
          peers.put(tag, new Peer(tag, servers));
        } else if (outcome.status().reachable()) {
          answered++;
          problems.add(ns + ": " + outcome.status() + ", no glue address; not a peer");
        } else {
          unanswered++;
          Peer kept = before.get(tag);
          problems.add(
              ns
                  + ": "
                  + outcome.status()
                  + " ("
                  + outcome.detail()
                  + ")"
                  + (kept == null ? "" : "; keeping " + kept.servers()));
          if (kept != null) {
            peers.put(tag, kept);
          }
        }
      }
      found.put(zone, peers);
    }
    return new Result(found, problems, answered > 0 || zones.isEmpty(), unanswered == 0);
  }

  /** Geo tag to NS name for a zone, or empty when the NS RRset could not be read. */
  private Optional<Map<String, String>> nameServers(DelegationZone zone, List<String> problems) {
    Map<String, String> out = new TreeMap<>();
    if (!geoTags.isEmpty()) {
      for (String tag : geoTags) {
        if (!tag.equals(ownGeoTag)) {
          out.put(tag, zone.nsName(gluePrefix, tag));
        }
      }
      return Optional.of(out);
    }
    EncodedQuery q = lookup.client().encode(zone.loadBalancedZone(), RecordType.NS, false);
    DnsLookup.Answer answer =
        lookup
            .query(q, edgeServers, 0, edgeServers.size() * attemptsPerServer, timeout, "", null)
            .join();
    if (answer.reply() == null || !answer.result().status().reachable()) {
      problems.add(
          zone.loadBalancedZone()
              + " NS: "
              + answer.result().status()
              + " "
              + answer.result().detail());
      return Optional.empty();
    }
    for (String ns : ReplyClassifier.nameServers(zone.loadBalancedZone(), answer.reply())) {
      Optional<String> tag = zone.geoTagOf(gluePrefix, ns);
      if (tag.isEmpty()) {
        problems.add(
            zone.loadBalancedZone()
                + " NS "
                + ns
                + " does not follow "
                + gluePrefix
                + "<geo-tag>-<zone>; skipped");
      } else if (!tag.get().equals(ownGeoTag)) {
        out.put(tag.get(), ns);
      }
    }
    return Optional.of(out);
  }

  private CompletableFuture<ProbeOutcome> addresses(String ns) {
    int attempts = edgeServers.size() * attemptsPerServer;
    CompletableFuture<DnsLookup.Answer> a =
        lookup.query(
            lookup.client().encode(ns, RecordType.A, true),
            edgeServers,
            0,
            attempts,
            timeout,
            "",
            null);
    CompletableFuture<DnsLookup.Answer> aaaa =
        lookup.query(
            lookup.client().encode(ns, RecordType.AAAA, true),
            edgeServers,
            0,
            attempts,
            timeout,
            "",
            null);
    return a.thenCombine(
        aaaa,
        (ra, rb) -> {
          QueryResult x = ra.result();
          QueryResult y = rb.result();
          String server = ra.server() == null ? "" : ra.server().toString();
          // An address from either family is enough; one family failing must not hide the other.
          if (x.status() == ProbeStatus.OK && !y.status().reachable()) {
            y = QueryResult.of(ProbeStatus.NODATA, "");
          } else if (y.status() == ProbeStatus.OK && !x.status().reachable()) {
            x = QueryResult.of(ProbeStatus.NODATA, "");
          }
          return ProbeOutcome.combine(x, y, server);
        });
  }

  /**
   * The result of a discovery.
   *
   * @param peers the peers per zone (those kept from before included)
   * @param problems what went wrong, one line each
   * @param reachedEdge true when at least one lookup got an answer
   * @param complete true when every lookup got an answer
   */
  public record Result(
      Map<DelegationZone, Map<String, Peer>> peers,
      List<String> problems,
      boolean reachedEdge,
      boolean complete) {

    /** Every peer found, over all zones. */
    public List<Peer> all() {
      List<Peer> out = new ArrayList<>();
      peers.values().forEach(m -> out.addAll(m.values()));
      return out;
    }
  }
}
