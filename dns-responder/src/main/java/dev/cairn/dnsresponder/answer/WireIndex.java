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
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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

  /**
   * Every set's encoding by the set itself (identity: the snapshot builder hands a later snapshot
   * the same set object for an endpoint that did not change), for the next index to reuse.
   */
  private final Map<RecordSet, EncodedSet> encoded;

  private WireIndex(
      Zones zones,
      ZoneSnapshot snapshot,
      Map<String, AnswerView.Apex> apexes,
      Map<RecordSet, EncodedSet> reusable) {
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
    Map<String, Node> nodes = snapshot == null ? Map.of() : snapshot.nodes();
    int capacity = Integer.highestOneBit(Math.max(16, nodes.size() * 2 + 1) - 1) << 1;
    hashes = new int[capacity];
    names = new byte[capacity][];
    entries = new Entry[capacity];
    mask = capacity - 1;
    encoded = new IdentityHashMap<>(nodes.size());
    for (Map.Entry<String, Node> node : nodes.entrySet()) {
      byte[] name = wire(node.getKey());
      if (name != null) {
        put(name, entry(node.getValue(), reusable));
      }
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
    return new WireIndex(zones, snapshot, apexes, Map.of());
  }

  /**
   * As {@link #compile(Zones, ZoneSnapshot, Map)}, taking the encoding of every set that {@code
   * previous} encoded already (the same set object) from it instead of encoding it again.
   */
  static WireIndex compile(
      Zones zones, ZoneSnapshot snapshot, Map<String, AnswerView.Apex> apexes, WireIndex previous) {
    return new WireIndex(zones, snapshot, apexes, previous == null ? Map.of() : previous.encoded);
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
  }

  private static int spread(int hash) {
    return hash ^ (hash >>> 16);
  }

  private Entry entry(Node node, Map<RecordSet, EncodedSet> reusable) {
    EncodedSet[] sets = new EncodedSet[RecordKind.values().length];
    for (Map.Entry<RecordKind, RecordSet> set : node.sets().entrySet()) {
      EncodedSet e = reusable.get(set.getValue());
      if (e == null) {
        e = encode(set.getValue());
      }
      encoded.put(set.getValue(), e);
      sets[set.getKey().ordinal()] = e;
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
