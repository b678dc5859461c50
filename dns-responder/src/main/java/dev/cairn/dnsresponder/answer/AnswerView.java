package dev.cairn.dnsresponder.answer;

import dev.cairn.dnsresponder.zone.Node;
import dev.cairn.dnsresponder.zone.RecordKind;
import dev.cairn.dnsresponder.zone.RecordSet;
import dev.cairn.dnsresponder.zone.Target;
import dev.cairn.dnsresponder.zone.ZoneSnapshot;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import dev.cairn.dnsresponder.zone.Zones;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.TextParseException;

/**
 * What the server answers from at one moment: the zones, the snapshot (absent while unsynced), the
 * apex records compiled once per snapshot (SOA, NS, glue) and the {@link WireIndex} (every name and
 * its records already in wire form), so queries only look things up. Immutable; swapped as a whole.
 */
public final class AnswerView {

  private final Zones zones;
  private final ZoneSnapshot snapshot;
  private final ServingState state;
  private final Map<String, Apex> apexes;
  private final WireIndex wire;

  /**
   * The compiled apex records of one zone.
   *
   * @param name the apex name
   * @param soa the SOA record, TTL and MINIMUM = the negative TTL
   * @param ns the NS records
   * @param glue A and AAAA records of in-zone name servers
   */
  record Apex(Name name, SOARecord soa, List<Record> ns, List<Record> glue) {}

  private AnswerView(Zones zones, ZoneSnapshot snapshot, ServingState state, AnswerView previous) {
    this.zones = Objects.requireNonNull(zones, "zones");
    this.snapshot = snapshot;
    this.state = Objects.requireNonNull(state, "state");
    this.apexes = snapshot == null ? Map.of() : compile(snapshot);
    this.wire = WireIndex.compile(zones, snapshot, apexes, previous == null ? null : previous.wire);
  }

  /** The view before anything is known: in-zone names get SERVFAIL. */
  public static AnswerView unsynced(Zones zones) {
    return new AnswerView(zones, null, ServingState.UNSYNCED, null);
  }

  /**
   * A view serving a snapshot.
   *
   * @param state {@link ServingState#SYNCED} or {@link ServingState#FROM_SNAPSHOT}
   */
  public static AnswerView serving(ZoneSnapshot snapshot, ServingState state) {
    return serving(snapshot, state, null);
  }

  /**
   * As {@link #serving(ZoneSnapshot, ServingState)}, reusing the compiled records of every record
   * set that {@code previous} serves too (the same set object: see {@link
   * dev.cairn.dnsresponder.zone.SnapshotBuilder#build(Zones, java.util.List,
   * dev.cairn.dnsresponder.zone.SnapshotBuilder.Limits, java.time.Instant, ZoneSnapshot)}).
   *
   * @param previous the view served now, or {@code null}
   */
  public static AnswerView serving(ZoneSnapshot snapshot, ServingState state, AnswerView previous) {
    Objects.requireNonNull(snapshot, "snapshot");
    if (state == ServingState.UNSYNCED) {
      throw new IllegalArgumentException("a view with a snapshot is not unsynced");
    }
    return new AnswerView(snapshot.zones(), snapshot, state, previous);
  }

  /** The zones. */
  public Zones zones() {
    return zones;
  }

  /** The snapshot, or {@code null} while unsynced. */
  public ZoneSnapshot snapshot() {
    return snapshot;
  }

  /** Where the records come from. */
  public ServingState state() {
    return state;
  }

  /** The same data compiled for answering straight from wire bytes. */
  WireIndex wire() {
    return wire;
  }

  Apex apex(String zoneName) {
    return apexes.get(zoneName);
  }

  private static Map<String, Apex> compile(ZoneSnapshot snapshot) {
    Map<String, Apex> apexes = new HashMap<>();
    for (ZoneSpec zone : snapshot.zones().specs()) {
      Name apex = name(zone.name());
      SOARecord soa =
          new SOARecord(
              apex,
              DClass.IN,
              zone.negativeTtlSeconds(),
              name(zone.primaryNameServer()),
              name(zone.hostmaster()),
              snapshot.serial(),
              zone.refreshSeconds(),
              zone.retrySeconds(),
              zone.expireSeconds(),
              zone.negativeTtlSeconds());
      List<Record> ns = new ArrayList<>();
      List<Record> glue = new ArrayList<>();
      for (ZoneSpec.NameServer server : zone.nameServers()) {
        Name serverName = name(server.name());
        ns.add(new NSRecord(apex, DClass.IN, zone.nsTtlSeconds(), serverName));
        Node node = snapshot.node(server.name());
        if (node != null && snapshot.zones().zoneOf(server.name()) != null) {
          addGlue(glue, serverName, node.get(RecordKind.A));
          addGlue(glue, serverName, node.get(RecordKind.AAAA));
        }
      }
      apexes.put(zone.name(), new Apex(apex, soa, List.copyOf(ns), List.copyOf(glue)));
    }
    return Map.copyOf(apexes);
  }

  private static void addGlue(List<Record> glue, Name owner, RecordSet set) {
    if (set == null) {
      return;
    }
    for (Target t : set.targets()) {
      glue.add(
          set.kind() == RecordKind.A
              ? new ARecord(owner, DClass.IN, set.ttlSeconds(), t.address())
              : new AAAARecord(owner, DClass.IN, set.ttlSeconds(), t.address()));
    }
  }

  /** The absolute dnsjava name of a stored (lower-case, dot-less) name. */
  static Name name(String name) {
    if (name.isEmpty()) {
      return Name.root;
    }
    try {
      return Name.fromString(name, Name.root);
    } catch (TextParseException e) {
      throw new IllegalArgumentException("'" + name + "' is not a DNS name", e);
    }
  }
}
