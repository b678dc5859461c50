package dev.cairn.dnsresponder.answer;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.zone.BuildResult;
import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.SnapshotBuilder;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import dev.cairn.dnsresponder.zone.ZoneSnapshot;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import dev.cairn.dnsresponder.zone.Zones;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.CookieOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.ExtendedFlags;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSIDOption;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * The fast path gives the full path's response, record for record, across many query shapes; and it
 * declines exactly what only the full path knows how to answer.
 */
class WireAnswererTest {

  private static final InetAddress EU_CLIENT = QueryAnswererTest.address("198.51.100.7");
  private static final InetAddress US_CLIENT = QueryAnswererTest.address("203.0.113.9");
  private static final InetAddress UNKNOWN_CLIENT = QueryAnswererTest.address("192.0.2.99");
  private static final InetAddress[] SOURCES = {EU_CLIENT, US_CLIENT, UNKNOWN_CLIENT};

  private static final GeoLocator GEO =
      (address, field) -> {
        if (address.equals(EU_CLIENT)) {
          return Optional.of(new GeoLocator.GeoMatch("eu", 24));
        }
        if (address.equals(US_CLIENT)) {
          return Optional.of(new GeoLocator.GeoMatch("us", 20));
        }
        return Optional.empty();
      };

  private static final ZoneSpec SUB =
      new ZoneSpec(
          "sub." + ZoneFixtures.ZONE,
          List.of(new ZoneSpec.NameServer("ns.other.example.net", List.of())),
          "admin.example.org",
          3600,
          600,
          86400,
          15,
          300);

  private static final String[] NAMES = {
    "app.cloud.example.com.",
    "v6.cloud.example.com.",
    "www.cloud.example.com.",
    "ext.cloud.example.com.",
    "big.cloud.example.com.",
    "many.cloud.example.com.",
    "txt.cloud.example.com.",
    "fivetxt.cloud.example.com.",
    "bigtxt.cloud.example.com.",
    "geo.cloud.example.com.",
    "weighted.cloud.example.com.",
    "weighted6.cloud.example.com.",
    "deep.app2.cloud.example.com.",
    "app2.cloud.example.com.",
    "nope.cloud.example.com.",
    "a.b.nope.cloud.example.com.",
    "cloud.example.com.",
    "ns1.cloud.example.com.",
    "sub.cloud.example.com.",
    "host.sub.cloud.example.com.",
    "missing.sub.cloud.example.com.",
    "example.com.",
    "example.org.",
    ".",
    "x\\032y.cloud.example.com.",
    "a\\.b.cloud.example.com.",
    "caf\\195\\169.cloud.example.com.",
    "l".repeat(63) + "." + "m".repeat(63) + "." + "n".repeat(63) + ".o" + ".cloud.example.com.",
  };

  private static final int[] TYPES = {
    Type.A,
    Type.AAAA,
    Type.TXT,
    Type.CNAME,
    Type.MX,
    Type.SOA,
    Type.NS,
    Type.ANY,
    Type.AXFR,
    Type.IXFR,
    Type.SRV,
    Type.CAA,
    Type.OPT,
    65534,
  };

  private static final ZoneSnapshot SNAPSHOT = snapshot();

  private static ZoneSnapshot snapshot() {
    List<String> big = new ArrayList<>();
    for (int i = 1; i <= 30; i++) {
      big.add("192.0.2." + (100 + i));
    }
    List<String> many = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      many.add("198.51.100." + i);
    }
    List<EndpointInput> inputs =
        List.of(
            endpoint("a", 0, "app.cloud.example.com", "A", 120, "192.0.2.1", "192.0.2.2"),
            endpoint("a", 1, "app.cloud.example.com", "TXT", 0, "owner=a"),
            endpoint("a", 2, "v6.cloud.example.com", "AAAA", 0, "2001:db8::1", "2001:db8::2"),
            endpoint("a", 3, "www.cloud.example.com", "CNAME", 0, "app.cloud.example.com"),
            endpoint("a", 4, "ext.cloud.example.com", "CNAME", 0, "target.example.net"),
            endpoint("a", 5, "big.cloud.example.com", "A", 0, big.toArray(String[]::new)),
            endpoint("a", 6, "many.cloud.example.com", "A", 0, many.toArray(String[]::new)),
            endpoint(
                "a",
                7,
                "txt.cloud.example.com",
                "TXT",
                0,
                "v=spf1 -all",
                "quote\"back\\slash caf\u00e9",
                "x".repeat(600)),
            endpoint("a", 8, "deep.app2.cloud.example.com", "A", 0, "192.0.2.3"),
            endpoint("a", 10, "fivetxt.cloud.example.com", "TXT", 0, "1", "2", "3", "4", "5"),
            endpoint(
                "a",
                11,
                "bigtxt.cloud.example.com",
                "TXT",
                0,
                "a".repeat(500),
                "b".repeat(500),
                "c".repeat(500)),
            endpoint("a", 9, "host.sub.cloud.example.com", "A", 0, "192.0.2.4"),
            labelled(
                "g",
                "geo.cloud.example.com",
                "A",
                Map.of("strategy", "geoip", "geo-eu-0", "192.0.2.10", "geo-us-0", "192.0.2.20"),
                "192.0.2.10",
                "192.0.2.20",
                "192.0.2.30"),
            labelled(
                "w",
                "weighted.cloud.example.com",
                "A",
                Map.of(
                    "weight-eu-0-80", "192.0.2.1",
                    "weight-eu-1-80", "192.0.2.5",
                    "weight-us-0-20", "192.0.2.2",
                    "weight-ap-0-0", "192.0.2.9"),
                "192.0.2.1",
                "192.0.2.5",
                "192.0.2.2",
                "192.0.2.9"),
            labelled(
                "w6",
                "weighted6.cloud.example.com",
                "AAAA",
                Map.of("weight-eu-0-50", "2001:db8::5", "weight-us-0-50", "2001:db8::6"),
                "2001:db8::5",
                "2001:db8::6"));
    BuildResult result =
        SnapshotBuilder.build(
            new Zones(List.of(ZoneFixtures.zone(), SUB)),
            inputs,
            ZoneFixtures.limits(),
            ZoneFixtures.NOW);
    return ((BuildResult.Built) result).snapshot();
  }

  /** Two answerers with the same settings and the same random sequence. */
  private record Pair(QueryAnswerer fast, QueryAnswerer full) {
    static Pair of(WeightedAnswer mode, int maxRecords, long seed) {
      return new Pair(answerer(mode, maxRecords, seed), answerer(mode, maxRecords, seed));
    }

    private static QueryAnswerer answerer(WeightedAnswer mode, int maxRecords, long seed) {
      return new QueryAnswerer(
          new TargetSelector(
              new SplittableRandom(seed), GEO, List.of("datacenter"), mode, maxRecords),
          1232,
          maxRecords);
    }
  }

  private final WireQuery wire = new WireQuery();
  private final ByteBuffer out = ByteBuffer.allocate(65535);
  private final AnswerView synced = AnswerView.serving(SNAPSHOT, ServingState.SYNCED);

  /**
   * Answers through the fast path (the full path when it declines) and through the full path only,
   * asserts the two responses are the same, and tells whether the fast path answered.
   */
  private boolean same(
      Pair pair, AnswerView view, byte[] query, InetAddress source, boolean udp, String what) {
    byte[] viaFast = null;
    if (wire.read(query, 0, query.length)) {
      int rcode = pair.fast().answer(view, wire, source, udp, out.clear());
      if (rcode != QueryAnswerer.NOT_HANDLED) {
        viaFast = new byte[out.remaining()];
        out.get(viaFast);
        assertThat(parse(viaFast).getRcode()).as(what).isEqualTo(rcode);
      }
    }
    boolean handled = viaFast != null;
    if (!handled) {
      viaFast = pair.fast().answer(view, parse(query), source).wire(udp);
    }
    Reply reference = pair.full().answer(view, parse(query), source);
    assertSameResponse(viaFast, reference.wire(udp), what);
    if (udp) {
      assertThat(viaFast.length).as(what).isLessThanOrEqualTo(reference.udpLimit());
    }
    return handled;
  }

  private static Message parse(byte[] bytes) {
    try {
      return new Message(bytes);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * The same header (ID, opcode, rcode, every flag, counts), the question with the same spelling,
   * and in every section the same records in the same order: owner with the same spelling, type,
   * class, TTL and data (names compared as DNS compares them). Compression may differ.
   */
  static void assertSameResponse(byte[] actual, byte[] expected, String what) {
    Message a = parse(actual);
    Message e = parse(expected);
    assertThat(a.getHeader().toString()).as(what).isEqualTo(e.getHeader().toString());
    for (int section : new int[] {Section.QUESTION, Section.ANSWER, Section.AUTHORITY}) {
      assertThat(describe(a.getSection(section)))
          .as(what)
          .isEqualTo(describe(e.getSection(section)));
      for (int i = 0; i < a.getSection(section).size(); i++) {
        assertThat(a.getSection(section).get(i)).as(what).isEqualTo(e.getSection(section).get(i));
      }
    }
    assertThat(describe(a.getSection(Section.ADDITIONAL)))
        .as(what)
        .isEqualTo(describe(e.getSection(Section.ADDITIONAL)));
  }

  private static List<String> describe(List<Record> records) {
    List<String> out = new ArrayList<>();
    for (Record r : records) {
      String data = r instanceof OPTRecord opt ? opt.getOptions().toString() : "";
      out.add(
          r.getName()
              + " "
              + r.getTTL()
              + " "
              + r.getDClass()
              + " "
              + Type.string(r.getType())
              + " "
              + data);
    }
    return out;
  }

  static byte[] query(
      String name, int type, boolean rd, int ednsSize, int ednsFlags, EDNSOption... options) {
    try {
      Message query = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
      if (!rd) {
        query.getHeader().unsetFlag(Flags.RD);
      }
      if (ednsSize >= 0) {
        query.addRecord(new OPTRecord(ednsSize, 0, 0, ednsFlags, options), Section.ADDITIONAL);
      }
      return query.toWire();
    } catch (org.xbill.DNS.TextParseException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  private static String mixCase(String name, Random random) {
    StringBuilder b = new StringBuilder(name.length());
    for (char c : name.toCharArray()) {
      b.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
    }
    return b.toString();
  }

  @Test
  void givesTheFullPathsResponseAcrossManyQueryShapes() {
    Random random = new Random(20261129);
    Pair one = Pair.of(WeightedAnswer.ONE, 32, 11);
    Pair ordered = Pair.of(WeightedAnswer.ALL_ORDERED, 3, 12);
    AnswerView unsynced = AnswerView.unsynced(SNAPSHOT.zones());
    int handled = 0;
    int total = 0;
    for (int i = 0; i < 6000; i++) {
      String name = mixCase(NAMES[random.nextInt(NAMES.length)], random);
      int type = TYPES[random.nextInt(TYPES.length)];
      boolean rd = random.nextBoolean();
      int edns = random.nextInt(8);
      byte[] query =
          switch (edns) {
            case 0, 1 -> query(name, type, rd, -1, 0);
            case 2 -> query(name, type, rd, 512, 0);
            case 3 -> query(name, type, rd, 1232, ExtendedFlags.DO);
            case 4 -> query(name, type, rd, 4096, 0, new CookieOption(new byte[8]));
            case 5 -> query(name, type, rd, 100, ExtendedFlags.DO, new NSIDOption(new byte[0]));
            case 6 -> query(name, type, rd, 65535, 0xFFFF); // every flag bit: only DO is echoed
            default ->
                query(
                    name,
                    type,
                    rd,
                    1232,
                    0,
                    new ClientSubnetOption(24, QueryAnswererTest.address("203.0.113.0")));
          };
      Pair pair = random.nextBoolean() ? one : ordered;
      AnswerView view = random.nextInt(10) == 0 ? unsynced : synced;
      InetAddress source = SOURCES[random.nextInt(SOURCES.length)];
      boolean udp = random.nextInt(4) != 0;
      String what = name + " " + Type.string(type) + " edns " + edns + " udp " + udp;
      total++;
      if (same(pair, view, query, source, udp, what)) {
        handled++;
      }
    }
    // Most shapes are common ones; the rest went through the full path and still matched.
    assertThat(handled).isGreaterThan(total / 2);
  }

  @Test
  void answersTheCommonShapesItselfAndDeclinesTheRest() {
    Pair pair = Pair.of(WeightedAnswer.ONE, 32, 5);
    record Case(String name, int type, int ednsSize, boolean fast) {}
    List<Case> cases =
        List.of(
            new Case("app.cloud.example.com.", Type.A, -1, true),
            new Case("App.Cloud.Example.COM.", Type.A, 1232, true),
            new Case("v6.cloud.example.com.", Type.AAAA, -1, true),
            new Case("txt.cloud.example.com.", Type.TXT, 1232, true),
            new Case("www.cloud.example.com.", Type.CNAME, -1, true),
            new Case("nope.cloud.example.com.", Type.A, -1, true),
            new Case("app.cloud.example.com.", Type.MX, -1, true),
            new Case("app2.cloud.example.com.", Type.A, -1, true),
            new Case("cloud.example.com.", Type.A, -1, true),
            new Case("host.sub.cloud.example.com.", Type.A, -1, true),
            new Case("missing.sub.cloud.example.com.", Type.A, 1232, true),
            new Case("example.org.", Type.A, -1, true),
            new Case("cloud.example.com.", Type.AXFR, -1, true),
            new Case("geo.cloud.example.com.", Type.A, -1, true),
            new Case("weighted.cloud.example.com.", Type.A, -1, true),
            new Case("big.cloud.example.com.", Type.A, 1232, true),
            new Case("many.cloud.example.com.", Type.A, 1232, true),
            // only the full path answers these
            new Case("big.cloud.example.com.", Type.A, -1, false), // over 512: truncation
            new Case("txt.cloud.example.com.", Type.TXT, -1, false), // over 512
            new Case("bigtxt.cloud.example.com.", Type.TXT, 4096, false), // over our 1232
            new Case("www.cloud.example.com.", Type.A, -1, false), // CNAME chain
            new Case("app.cloud.example.com.", Type.ANY, -1, false),
            new Case("cloud.example.com.", Type.SOA, -1, false),
            new Case("sub.cloud.example.com.", Type.NS, -1, false));
    for (Case c : cases) {
      byte[] query = query(c.name(), c.type(), true, c.ednsSize(), 0);
      String what = c.name() + " " + Type.string(c.type()) + " edns " + c.ednsSize();
      assertThat(same(pair, synced, query, EU_CLIENT, true, what)).as(what).isEqualTo(c.fast());
    }
  }

  @Test
  void servfailsInZoneAndRefusesOutsideWhileUnsynced() {
    Pair pair = Pair.of(WeightedAnswer.ONE, 32, 5);
    AnswerView unsynced = AnswerView.unsynced(SNAPSHOT.zones());
    byte[] inZone = query("app.cloud.example.com.", Type.A, true, -1, 0);
    byte[] outside = query("example.org.", Type.A, true, 1232, 0);

    assertThat(same(pair, unsynced, inZone, EU_CLIENT, true, "in zone")).isTrue();
    assertThat(same(pair, unsynced, outside, EU_CLIENT, true, "outside")).isTrue();
    assertThat(wire.read(inZone, 0, inZone.length)).isTrue();
    assertThat(pair.fast().answer(unsynced, wire, EU_CLIENT, true, out.clear()))
        .isEqualTo(org.xbill.DNS.Rcode.SERVFAIL);
    assertThat(wire.read(outside, 0, outside.length)).isTrue();
    assertThat(pair.fast().answer(unsynced, wire, EU_CLIENT, true, out.clear()))
        .isEqualTo(org.xbill.DNS.Rcode.REFUSED);
  }

  @Test
  void drawsWeightedAndGeoAnswersExactlyAsTheFullPath() {
    // Many answers from the same seeded sequences: every draw must line up.
    for (WeightedAnswer mode : WeightedAnswer.values()) {
      Pair pair = Pair.of(mode, 32, 99);
      for (int i = 0; i < 500; i++) {
        for (String name :
            List.of(
                "weighted.cloud.example.com.",
                "weighted6.cloud.example.com.",
                "geo.cloud.example.com.",
                "app.cloud.example.com.",
                "many.cloud.example.com.")) {
          int type = name.startsWith("weighted6") ? Type.AAAA : Type.A;
          InetAddress source = SOURCES[i % SOURCES.length];
          assertThat(same(pair, synced, query(name, type, false, 4096, 0), source, true, name + i))
              .isTrue();
        }
      }
    }
  }

  @Test
  void aSlipIsTheFullPathsTruncatedReply() {
    QueryAnswerer answerer = Pair.of(WeightedAnswer.ONE, 32, 1).fast();
    for (int ednsSize : new int[] {-1, 1232}) {
      byte[] query = query("ApP.cloud.example.com.", Type.A, true, ednsSize, ExtendedFlags.DO);
      assertThat(wire.read(query, 0, query.length)).isTrue();

      answerer.truncated(wire, out.clear());
      byte[] slip = new byte[out.remaining()];
      out.get(slip);

      byte[] expected = answerer.answer(synced, parse(query), EU_CLIENT).truncatedWire();
      assertSameResponse(slip, expected, "slip, edns " + ednsSize);
      assertThat(parse(slip).getHeader().getFlag(Flags.TC)).isTrue();
    }
  }

  @Test
  void findsTheDeepestZoneAndEveryStoredName() {
    WireIndex index = synced.wire();
    for (String name : SNAPSHOT.nodes().keySet()) {
      byte[] query = query(name + ".", Type.A, false, -1, 0);
      assertThat(wire.read(query, 0, query.length)).isTrue();
      assertThat(index.find(wire)).as(name).isNotNull();
      assertThat(index.zoneOf(wire).spec()).as(name).isEqualTo(SNAPSHOT.zones().zoneOf(name));
    }
    byte[] query = query("a.host.SUB.cloud.example.com.", Type.A, false, -1, 0);
    assertThat(wire.read(query, 0, query.length)).isTrue();
    assertThat(index.find(wire)).isNull();
    assertThat(index.zoneOf(wire).spec()).isEqualTo(SUB);
  }

  @Test
  void servesTheRootZone() {
    ZoneSpec root =
        new ZoneSpec(
            "",
            List.of(new ZoneSpec.NameServer("ns1.example.net", List.of())),
            "hostmaster.example.net",
            3600,
            600,
            86400,
            30,
            3600);
    BuildResult result =
        SnapshotBuilder.build(
            new Zones(List.of(root)),
            List.of(endpoint("r", 0, "host.example.net", "A", 0, "192.0.2.8")),
            ZoneFixtures.limits(),
            ZoneFixtures.NOW);
    AnswerView view =
        AnswerView.serving(((BuildResult.Built) result).snapshot(), ServingState.SYNCED);
    Pair pair = Pair.of(WeightedAnswer.ONE, 32, 3);

    for (String name : List.of("host.example.net.", "Nope.Example.net.", "example.net.", ".")) {
      for (int type : new int[] {Type.A, Type.AAAA}) {
        assertThat(same(pair, view, query(name, type, false, 1232, 0), EU_CLIENT, true, name))
            .as(name)
            .isTrue();
      }
    }
  }

  @Test
  void answersCommonQueriesWithoutAllocating() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    QueryAnswerer answerer = Pair.of(WeightedAnswer.ONE, 32, 8).fast();
    byte[][] queries = {
      query("app.cloud.example.com.", Type.A, true, -1, 0),
      query("V6.cloud.example.com.", Type.AAAA, false, 1232, ExtendedFlags.DO),
      query("nope.cloud.example.com.", Type.A, true, -1, 0),
      query("app2.cloud.example.com.", Type.TXT, true, 1232, 0),
      query("txt.cloud.example.com.", Type.TXT, true, 4096, 0),
      query("example.org.", Type.A, true, -1, 0),
    };
    int rounds = 5_000;
    long allocated = 0;
    for (int pass = 0; pass < 2; pass++) { // the first pass loads and initialises classes
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < rounds; i++) {
        for (byte[] query : queries) {
          // no AssertJ in the loop: its assertion objects would be counted
          if (!wire.read(query, 0, query.length)
              || answerer.answer(synced, wire, EU_CLIENT, true, out.clear())
                  == QueryAnswerer.NOT_HANDLED) {
            throw new AssertionError("declined");
          }
        }
      }
      allocated = threads.getCurrentThreadAllocatedBytes() - before;
    }
    // Not one object per query: under one octet per query on average.
    assertThat(allocated).isLessThan((long) rounds * queries.length);
  }

  @Test
  void convertsStoredNamesToWireFormOnlyWhenAQueryCouldSpellThem() {
    assertThat(WireIndex.wire("")).containsExactly(0);
    assertThat(WireIndex.wire("a.bc")).containsExactly(1, 'a', 2, 'b', 'c', 0);
    assertThat(WireIndex.wire("a..b")).isNull();
    assertThat(WireIndex.wire("a b.c")).isNull();
    assertThat(WireIndex.wire("a\\b.c")).isNull();
    assertThat(WireIndex.wire("x".repeat(64) + ".c")).isNull();
    assertThat(WireIndex.wire("x".repeat(63) + ".c")).hasSize(63 + 1 + 2 + 1);
  }
}
