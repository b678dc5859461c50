package dev.cairn.dnsresponder.answer;

import dev.cairn.dnsresponder.zone.Node;
import dev.cairn.dnsresponder.zone.RecordKind;
import dev.cairn.dnsresponder.zone.RecordSet;
import dev.cairn.dnsresponder.zone.Target;
import dev.cairn.dnsresponder.zone.ZoneSnapshot;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import dev.cairn.dnsresponder.zone.Zones;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;

/**
 * The wire-format side of an {@link AnswerView}, compiled once per view so that a query of the
 * common shape is answered by look-ups and copies: every stored name in lower-case wire form in an
 * open-addressing table (hash, then bytes; nothing allocated per look-up), each with its record
 * sets encoded by dnsjava as ready resource records whose owner is a compression pointer to the
 * question (offset 12), and per zone its apex in wire form and its SOA record for negative answers.
 * Immutable.
 *
 * <p>A stored name is indexed only when the full path could match it: labels of printable ASCII
 * other than {@code \} (every name the snapshot builder accepts). The full path turns other octets
 * into {@code \} in its look-up key, so such a name never matches there either.
 */
final class WireIndex {

  /** A compression pointer to the question name, right after the 12-octet header. */
  private static final int POINTER_TO_QUESTION = 0xC000 | WireQuery.HEADER;

  /** A served zone: its apex and, with a snapshot, the SOA record that negative answers carry. */
  static final class Zone {
    private final ZoneSpec spec;
    private final byte[] apex;
    private final byte[] soa;

    Zone(ZoneSpec spec, byte[] apex, byte[] soa) {
      this.spec = spec;
      this.apex = apex;
      this.soa = soa;
    }

    /** The zone. */
    ZoneSpec spec() {
      return spec;
    }

    /** The apex's wire length, its final zero octet included (1 for the root). */
    int apexLength() {
      return apex.length;
    }

    /**
     * The SOA resource record, owned by a zeroed compression pointer that the caller points at the
     * apex inside the question, or by the root for the root zone; {@code null} without a snapshot.
     */
    byte[] soa() {
      return soa;
    }

    boolean isRoot() {
      return apex.length == 1;
    }

    boolean isSuffixOf(byte[] name, int start, int end) {
      return Arrays.equals(name, start, end, apex, 0, apex.length);
    }
  }

  /**
   * The encoded records of one set.
   *
   * @param set the set (selection needs its targets, weights and geo flag)
   * @param records the resource records of every target in set order, concatenated, each owned by a
   *     pointer to the question; {@code null} when the set cannot be encoded (the full path then
   *     answers)
   * @param starts where record {@code i} starts in {@code records}; {@code starts[n]} is the end
   * @param longest the length of the longest record
   */
  record EncodedSet(RecordSet set, byte[] records, int[] starts, int longest) {

    int size() {
      return starts.length - 1;
    }
  }

  /** The sets of one name, by {@link RecordKind#ordinal()}; an empty non-terminal has none. */
  record Entry(EncodedSet[] sets) {

    EncodedSet get(RecordKind kind) {
      return sets[kind.ordinal()];
    }
  }

  private final int[] hashes;
  private final byte[][] names;
  private final Entry[] entries;
  private final int mask;
  private final Zone[][] zonesByApexLength = new Zone[256][];

  /** The snapshot compiled (none while unsynced) and the number of names stored. */
  private final ZoneSnapshot snapshot;

  private int size;

  /**
   * Compiles every name of {@code snapshot}; a set that {@code previous} encoded already at the
   * same name (the same set object: the snapshot builder hands a later snapshot the same set for an
   * endpoint that did not change) is taken from it instead of encoded again.
   */
  private WireIndex(
      Zones zones, ZoneSnapshot snapshot, Map<String, AnswerView.Apex> apexes, WireIndex previous) {
    indexZones(zones, apexes);
    this.snapshot = snapshot;
    Map<String, Node> nodes = snapshot == null ? Map.of() : snapshot.nodes();
    int capacity = Integer.highestOneBit(Math.max(16, nodes.size() * 2 + 1) - 1) << 1;
    hashes = new int[capacity];
    names = new byte[capacity][];
    entries = new Entry[capacity];
    mask = capacity - 1;
    for (Map.Entry<String, Node> node : nodes.entrySet()) {
      byte[] name = wire(node.getKey());
      if (name != null) {
        Entry before = previous == null ? null : previous.entryOf(name);
        put(name, entry(node.getValue(), before));
      }
    }
  }

  /**
   * {@code previous} with the names that changed since its snapshot compiled again: its tables
   * copied, each changed name removed, replaced or added. Every other name keeps its entry.
   */
  private WireIndex(
      Zones zones,
      ZoneSnapshot snapshot,
      Map<String, AnswerView.Apex> apexes,
      WireIndex previous,
      Set<String> changed) {
    indexZones(zones, apexes);
    this.snapshot = snapshot;
    hashes = previous.hashes.clone();
    names = previous.names.clone();
    entries = previous.entries.clone();
    mask = previous.mask;
    size = previous.size;
    for (String changedName : changed) {
      byte[] name = wire(changedName);
      if (name == null) {
        continue;
      }
      int slot = slotOf(name);
      Node node = snapshot.node(changedName);
      if (node == null) {
        if (slot >= 0) {
          remove(slot);
        }
      } else if (slot >= 0) {
        entries[slot] = entry(node, entries[slot]);
      } else {
        put(name, entry(node, null));
      }
    }
  }

  private void indexZones(Zones zones, Map<String, AnswerView.Apex> apexes) {
    for (ZoneSpec spec : zones.specs()) {
      byte[] apex = wire(spec.name());
      if (apex == null) {
        continue; // a zone name no query can spell (see the class comment)
      }
      AnswerView.Apex compiled = apexes.get(spec.name());
      Zone zone = new Zone(spec, apex, compiled == null ? null : soa(compiled.soa()));
      Zone[] same = zonesByApexLength[apex.length];
      Zone[] grown = same == null ? new Zone[1] : Arrays.copyOf(same, same.length + 1);
      grown[grown.length - 1] = zone;
      zonesByApexLength[apex.length] = grown;
    }
  }

  /**
   * Compiles the index of a view.
   *
   * @param zones the served zones
   * @param snapshot the snapshot, or {@code null} while unsynced (zones only)
   * @param apexes the compiled apex records by zone name (empty while unsynced)
   */
  static WireIndex compile(
      Zones zones, ZoneSnapshot snapshot, Map<String, AnswerView.Apex> apexes) {
    return new WireIndex(zones, snapshot, apexes, null);
  }

  /**
   * As {@link #compile(Zones, ZoneSnapshot, Map)}, from the index of the view served now: when
   * {@code snapshot} was built from {@code previous}'s snapshot ({@link
   * ZoneSnapshot#changedSince}), only the names that changed are compiled, into copies of {@code
   * previous}'s tables (unless they would then be more than half full, or less than an eighth);
   * otherwise every name is, taking from {@code previous} the encoding of each set it holds at the
   * same name.
   */
  static WireIndex compile(
      Zones zones, ZoneSnapshot snapshot, Map<String, AnswerView.Apex> apexes, WireIndex previous) {
    if (previous == null) {
      return new WireIndex(zones, snapshot, apexes, null);
    }
    Set<String> changed =
        snapshot == null
            ? null
            : snapshot == previous.snapshot ? Set.of() : snapshot.changedSince(previous.snapshot);
    if (changed != null) {
      long most = (long) previous.size + changed.size();
      int capacity = previous.mask + 1;
      if (most * 2 < capacity && (capacity <= 16 || most * 8 >= capacity)) {
        return new WireIndex(zones, snapshot, apexes, previous, changed);
      }
    }
    return new WireIndex(zones, snapshot, apexes, previous);
  }

  /**
   * The deepest zone containing the query's name, like {@link Zones#zoneOf}: the suffixes of the
   * name are tried from the whole name to the root.
   */
  Zone zoneOf(WireQuery query) {
    byte[] name = query.lowerName();
    int length = query.nameLength();
    for (int i = 0; i <= query.labelCount(); i++) {
      int start = i < query.labelCount() ? query.labelStart(i) : length - 1;
      Zone[] candidates = zonesByApexLength[length - start];
      if (candidates == null) {
        continue;
      }
      for (Zone zone : candidates) {
        if (zone.isSuffixOf(name, start, length)) {
          return zone;
        }
      }
    }
    return null;
  }

  /** The entry of the query's name, or {@code null} when the name does not exist. */
  Entry find(WireQuery query) {
    byte[] name = query.lowerName();
    int length = query.nameLength();
    int hash = query.nameHash();
    for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      byte[] stored = names[slot];
      if (stored == null) {
        return null;
      }
      if (hashes[slot] == hash && Arrays.equals(stored, 0, stored.length, name, 0, length)) {
        return entries[slot];
      }
    }
  }

  private void put(byte[] name, Entry entry) {
    int hash = WireQuery.hash(name, 0, name.length - 1);
    int slot = spread(hash) & mask;
    while (names[slot] != null) {
      slot = (slot + 1) & mask;
    }
    hashes[slot] = hash;
    names[slot] = name;
    entries[slot] = entry;
    size++;
  }

  /** The slot of a stored name in wire form, or -1. */
  private int slotOf(byte[] name) {
    int hash = WireQuery.hash(name, 0, name.length - 1);
    for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      byte[] stored = names[slot];
      if (stored == null) {
        return -1;
      }
      if (hashes[slot] == hash && Arrays.equals(stored, name)) {
        return slot;
      }
    }
  }

  private Entry entryOf(byte[] name) {
    int slot = slotOf(name);
    return slot < 0 ? null : entries[slot];
  }

  /**
   * Empties a slot, moving back the names after it in its run that may fill it (deletion from a
   * linear-probing table without tombstones), so every look-up still finds its name.
   */
  private void remove(int slot) {
    int hole = slot;
    names[hole] = null;
    entries[hole] = null;
    hashes[hole] = 0;
    size--;
    for (int next = (hole + 1) & mask; names[next] != null; next = (next + 1) & mask) {
      int home = spread(hashes[next]) & mask;
      // The name at next may fill the hole unless its home lies after the hole in the run.
      if (((next - home) & mask) >= ((next - hole) & mask)) {
        hashes[hole] = hashes[next];
        names[hole] = names[next];
        entries[hole] = entries[next];
        hashes[next] = 0;
        names[next] = null;
        entries[next] = null;
        hole = next;
      }
    }
  }

  private static int spread(int hash) {
    return hash ^ (hash >>> 16);
  }

  /** A node's entry; sets that {@code before} (the name's entry until now) encoded are kept. */
  private static Entry entry(Node node, Entry before) {
    EncodedSet[] sets = new EncodedSet[RecordKind.values().length];
    for (Map.Entry<RecordKind, RecordSet> set : node.sets().entrySet()) {
      int kind = set.getKey().ordinal();
      EncodedSet e = before == null ? null : before.sets()[kind];
      if (e == null || e.set() != set.getValue()) {
        e = encode(set.getValue());
      }
      sets[kind] = e;
    }
    return new Entry(sets);
  }

  private static EncodedSet encode(RecordSet set) {
    List<Target> targets = set.targets();
    List<byte[]> records = new ArrayList<>(targets.size());
    int total = 0;
    try {
      for (Target target : targets) {
        byte[] rr = record(set, target).toWire(Section.ANSWER);
        records.add(rr);
        total += rr.length + 1; // the root owner (1 octet) becomes a 2-octet pointer
      }
    } catch (RuntimeException e) {
      return new EncodedSet(set, null, new int[targets.size() + 1], 0);
    }
    byte[] all = new byte[total];
    int[] starts = new int[targets.size() + 1];
    int pos = 0;
    int longest = 0;
    for (int i = 0; i < records.size(); i++) {
      byte[] rr = records.get(i);
      starts[i] = pos;
      longest = Math.max(longest, rr.length + 1);
      all[pos] = (byte) (POINTER_TO_QUESTION >>> 8);
      all[pos + 1] = (byte) POINTER_TO_QUESTION;
      System.arraycopy(rr, 1, all, pos + 2, rr.length - 1);
      pos += rr.length + 1;
    }
    starts[records.size()] = pos;
    return new EncodedSet(set, all, starts, longest);
  }

  /** The record the full path builds for one target, owned by the root. */
  private static Record record(RecordSet set, Target target) {
    long ttl = set.ttlSeconds();
    return switch (set.kind()) {
      case A -> new ARecord(Name.root, DClass.IN, ttl, target.address());
      case AAAA -> new AAAARecord(Name.root, DClass.IN, ttl, target.address());
      case CNAME -> new CNAMERecord(Name.root, DClass.IN, ttl, AnswerView.name(target.value()));
      case TXT ->
          new TXTRecord(Name.root, DClass.IN, ttl, QueryAnswerer.txtStrings(target.value()));
    };
  }

  private static byte[] soa(SOARecord soa) {
    byte[] rr;
    try {
      rr = soa.withName(Name.root).toWire(Section.AUTHORITY);
    } catch (RuntimeException e) {
      return null;
    }
    if (soa.getName().equals(Name.root)) {
      return rr;
    }
    byte[] pointed = new byte[rr.length + 1];
    System.arraycopy(rr, 1, pointed, 2, rr.length - 1);
    return pointed;
  }

  /**
   * A stored (lower-case, dot-less) name in wire form, or {@code null} when no query can match it:
   * an empty or over-long label, a name over 255 octets, or an octet the full path neutralises.
   */
  static byte[] wire(String name) {
    if (name.isEmpty()) {
      return new byte[] {0};
    }
    byte[] out = new byte[name.length() + 2];
    int n = 0;
    int start = 0;
    while (start <= name.length()) {
      int end = name.indexOf('.', start);
      if (end < 0) {
        end = name.length();
      }
      int length = end - start;
      if (length == 0 || length > 63) {
        return null;
      }
      out[n++] = (byte) length;
      for (int i = start; i < end; i++) {
        char c = name.charAt(i);
        if (c <= ' ' || c >= 0x7F || c == '\\') {
          return null;
        }
        out[n++] = (byte) c;
      }
      start = end + 1;
    }
    out[n++] = 0;
    return n > 255 ? null : out;
  }
}
