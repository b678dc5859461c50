package dev.cairn.healthprober.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.healthprober.probe.QueryResult;
import dev.cairn.healthprober.probe.RecordType;
import dev.cairn.healthprober.probe.ReplyClassifier;
import java.io.ByteArrayOutputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.Type;

class WireReplyTest {

  private static final String ZONE = "cloud.example.com";
  private static final String QNAME = "localtargets-app7." + ZONE;

  // ------------------------------------------------------------------ fixtures

  static Name name(String n) {
    try {
      return Name.fromString(n.endsWith(".") ? n : n + ".");
    } catch (Exception e) {
      throw new IllegalArgumentException(n, e);
    }
  }

  static EncodedQuery query(String qname, RecordType type) {
    Name n = name(qname);
    Message m = Message.newQuery(Record.newRecord(n, type.code(), DClass.IN));
    m.getHeader().unsetFlag(Flags.RD);
    m.addRecord(new OPTRecord(1232, 0, 0), Section.ADDITIONAL);
    return new EncodedQuery(n, qname.toLowerCase(Locale.ROOT), type, m.toWire());
  }

  static Message reply(EncodedQuery q, int rcode) {
    Message m = new Message(0x1234);
    m.getHeader().setFlag(Flags.QR);
    m.getHeader().setFlag(Flags.AA);
    m.getHeader().setRcode(rcode);
    m.addRecord(Record.newRecord(q.name(), q.type().code(), DClass.IN), Section.QUESTION);
    return m;
  }

  static Record a(String owner, String ip, long ttl) throws Exception {
    return new ARecord(name(owner), DClass.IN, ttl, InetAddress.getByName(ip));
  }

  static Record aaaa(String owner, String ip, long ttl) throws Exception {
    byte[] b = InetAddress.getByName(ip).getAddress();
    if (b.length == 4) { // Java reads ::ffff:a.b.c.d as IPv4; keep the 16 bytes on the wire
      b = new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -1, b[0], b[1], b[2], b[3]};
    }
    return new AAAARecord(name(owner), DClass.IN, ttl, Inet6Address.getByAddress(null, b, -1));
  }

  static Record soa(long ttl, long minimum) {
    return new SOARecord(
        name(ZONE),
        DClass.IN,
        ttl,
        name("ns1." + ZONE),
        name("hostmaster." + ZONE),
        1,
        3600,
        600,
        86400,
        minimum);
  }

  static Record ns(String zone, String server) {
    return new NSRecord(name(zone), DClass.IN, 30, name(server));
  }

  /** What the reply reader, the classifier and dnsjava make of a packet: the reference path. */
  static QueryResult classified(byte[] wire, EncodedQuery q, int maxRecords) throws Exception {
    return ReplyClassifier.classify(
        q.qname(), q.type(), ReplyReader.read(new Message(wire), q), ZONE, maxRecords);
  }

  static QueryResult direct(byte[] wire, EncodedQuery q, int maxRecords) throws Exception {
    WireReply r = WireReply.read(wire);
    assertThat(r.answers(q)).isTrue();
    return r.addressResult(q, maxRecords);
  }

  static List<String> texts(QueryResult r) {
    return r.addresses().stream().map(IpLiteral::text).toList();
  }

  // ------------------------------------------------------------------ the usual shapes

  @Test
  void readsTheAddressesOfTheQuestionNameStraightFromTheWire() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(a(QNAME, "192.0.2.7", 30), Section.ANSWER);
    m.addRecord(a(QNAME, "198.51.100.1", 20), Section.ANSWER);
    m.addRecord(new OPTRecord(1232, 0, 0), Section.ADDITIONAL);
    byte[] wire = m.toWire();

    QueryResult r = direct(wire, q, 64);

    assertThat(r.status()).isEqualTo(ProbeStatus.OK);
    assertThat(texts(r)).containsExactly("192.0.2.7", "198.51.100.1");
    assertThat(r.ttlSeconds()).isEqualTo(20L);
    assertThat(r).isEqualTo(classified(wire, q, 64));
  }

  @Test
  void anEmptyAnswerIsNodataWithTheNegativeTtlOfTheSoa() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.AAAA);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(soa(60, 15), Section.AUTHORITY);
    byte[] wire = m.toWire();

    QueryResult r = direct(wire, q, 64);

    assertThat(r.status()).isEqualTo(ProbeStatus.NODATA);
    assertThat(r.ttlSeconds()).isEqualTo(15L);
    assertThat(r).isEqualTo(classified(wire, q, 64));
  }

  @Test
  void nxdomainServfailRefusedAndOtherCodes() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Message nx = reply(q, Rcode.NXDOMAIN);
    nx.addRecord(soa(10, 300), Section.AUTHORITY);

    assertThat(direct(nx.toWire(), q, 64))
        .isEqualTo(new QueryResult(ProbeStatus.NXDOMAIN, List.of(), 10L, false, ""));
    assertThat(direct(reply(q, Rcode.SERVFAIL).toWire(), q, 64).status())
        .isEqualTo(ProbeStatus.SERVFAIL);
    assertThat(direct(reply(q, Rcode.REFUSED).toWire(), q, 64).status())
        .isEqualTo(ProbeStatus.REFUSED);
    assertThat(direct(reply(q, Rcode.NOTIMP).toWire(), q, 64))
        .isEqualTo(QueryResult.of(ProbeStatus.ERROR, "response code 4"));
  }

  @Test
  void theExtendedResponseCodeOfEdnsCounts() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(new OPTRecord(1232, 1, 0), Section.ADDITIONAL); // BADVERS: 16
    byte[] wire = m.toWire();

    assertThat(direct(wire, q, 64))
        .isEqualTo(QueryResult.of(ProbeStatus.ERROR, "response code 16"));
    assertThat(direct(wire, q, 64)).isEqualTo(classified(wire, q, 64));
  }

  @Test
  void aReferralToAnAddressQuestionIsAnError() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(ns(ZONE, "gslb-ns-eu.example.com"), Section.AUTHORITY);
    byte[] wire = m.toWire();

    assertThat(direct(wire, q, 64).status()).isEqualTo(ProbeStatus.ERROR);
    assertThat(direct(wire, q, 64)).isEqualTo(classified(wire, q, 64));
  }

  @Test
  void ignoresRecordsOfOtherNamesAndTypesAndCapsTheCount() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(a("evil.example.org", "203.0.113.66", 5), Section.ANSWER);
    m.addRecord(aaaa(QNAME, "2001:db8::1", 5), Section.ANSWER);
    for (int i = 1; i <= 5; i++) {
      m.addRecord(a(QNAME, "192.0.2." + i, 100 + i), Section.ANSWER);
    }
    byte[] wire = m.toWire();

    QueryResult r = direct(wire, q, 3);

    assertThat(texts(r)).containsExactly("192.0.2.1", "192.0.2.2", "192.0.2.3");
    assertThat(r.capped()).isTrue();
    assertThat(r.ttlSeconds()).isEqualTo(101L);
    assertThat(r).isEqualTo(classified(wire, q, 3));
  }

  @Test
  void anIpv4MappedAaaaAddressIsReadAsIpv4AsEverywhere() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.AAAA);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(aaaa(QNAME, "::ffff:192.0.2.9", 30), Section.ANSWER);
    m.addRecord(aaaa(QNAME, "2001:DB8:0:0:0:0:0:0001", 30), Section.ANSWER);
    byte[] wire = m.toWire();

    QueryResult r = direct(wire, q, 64);

    assertThat(r.addresses())
        .containsExactly(
            new IpLiteral(IpLiteral.Family.IPV4, "192.0.2.9"),
            new IpLiteral(IpLiteral.Family.IPV6, "2001:db8::1"));
    assertThat(r).isEqualTo(classified(wire, q, 64));
  }

  @Test
  void leavesACnameChainToTheClassifier() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(new CNAMERecord(name(QNAME), DClass.IN, 30, name("app." + ZONE)), Section.ANSWER);
    m.addRecord(a("app." + ZONE, "192.0.2.4", 30), Section.ANSWER);

    assertThat(direct(m.toWire(), q, 64)).isNull();
    assertThat(classified(m.toWire(), q, 64).addresses()).hasSize(1);
  }

  @Test
  void leavesRecordsItDoesNotCheckToDnsjava() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(a(QNAME, "192.0.2.4", 30), Section.ANSWER);
    m.addRecord(new TXTRecord(name(QNAME), DClass.IN, 30, "hello"), Section.ADDITIONAL);
    WireReply r = WireReply.read(m.toWire());

    assertThat(r.addressResult(q, 64)).isNull();
    assertThat(r.message().getSection(Section.ADDITIONAL)).hasSize(1);
  }

  @Test
  void aNonAddressQuestionIsLeftToTheClassifier() throws Exception {
    EncodedQuery q = query(ZONE, RecordType.NS);
    Message m = reply(q, Rcode.NOERROR);
    m.addRecord(ns(ZONE, "gslb-ns-eu-cloud.example.com"), Section.ANSWER);

    assertThat(direct(m.toWire(), q, 64)).isNull();
  }

  // ------------------------------------------------------------------ matching the question

  @Test
  void matchesTheQuestionInAnyLetterCase() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    EncodedQuery upper = query(QNAME.toUpperCase(Locale.ROOT), RecordType.A);
    byte[] wire = reply(upper, Rcode.NOERROR).toWire();

    assertThat(WireReply.read(wire).answers(q)).isTrue();
  }

  @Test
  void refusesAnotherQuestionTypeClassOrAQuery() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);

    assertThat(WireReply.read(reply(query(QNAME, RecordType.AAAA), 0).toWire()).answers(q))
        .isFalse();
    assertThat(WireReply.read(reply(query("other." + ZONE, RecordType.A), 0).toWire()).answers(q))
        .isFalse();
    assertThat(
            WireReply.read(
                    reply(query("localtargets-app7.cloud.example", RecordType.A), 0).toWire())
                .answers(q))
        .isFalse();
    Message chaos = new Message(1);
    chaos.getHeader().setFlag(Flags.QR);
    chaos.addRecord(Record.newRecord(q.name(), Type.A, DClass.CH), Section.QUESTION);
    assertThat(WireReply.read(chaos.toWire()).answers(q)).isFalse();
    assertThat(WireReply.read(q.wire()).answers(q)).isFalse(); // QR not set
    Message none = new Message(1);
    none.getHeader().setFlag(Flags.QR);
    assertThat(WireReply.read(none.toWire()).answers(q)).isFalse();
  }

  @Test
  void readsAnOwnerThatIsNotCompressedAndInAnotherCase() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Packet p = new Packet(0).question(QNAME, 1);
    p.record(p.name(QNAME.toUpperCase(Locale.ROOT)), 1, 30, new byte[] {(byte) 192, 0, 2, 5});
    p.record(p.pointer(12), 1, 4_294_967_295L, new byte[] {(byte) 192, 0, 2, 6});
    // an owner that points into the question name: cloud.example.com, another name
    p.record(p.pointer(12 + 1 + "localtargets-app7".length()), 1, 1, new byte[] {1, 2, 3, 4});
    byte[] wire = p.bytes(2, 0, 0);

    QueryResult r = direct(wire, q, 64);

    assertThat(texts(r)).containsExactly("192.0.2.5", "192.0.2.6");
    assertThat(r.ttlSeconds()).isEqualTo(30L);
    assertThat(r).isEqualTo(classified(wire, q, 64));
  }

  // ------------------------------------------------------------------ malformed packets

  @Test
  void rejectsWhatDnsjavaRejects() {
    Packet loop = new Packet(0).question(QNAME, 1);
    loop.record(loop.pointer(loop.size()), 1, 30, new byte[4]); // points at itself
    Packet forward = new Packet(0).question(QNAME, 1);
    forward.record(forward.pointer(forward.size() + 40), 1, 30, new byte[4]);
    Packet shortA = new Packet(0).question(QNAME, 1);
    shortA.record(shortA.pointer(12), 1, 30, new byte[3]);
    Packet longA = new Packet(0).question(QNAME, 1);
    longA.record(longA.pointer(12), 1, 30, new byte[5]);
    Packet badLabel = new Packet(0).question(QNAME, 1);
    badLabel.record(new byte[] {0x40, 0}, 1, 30, new byte[4]);
    Packet badTxt = new Packet(0).question(QNAME, 1);
    badTxt.record(badTxt.pointer(12), 16, 30, new byte[] {9, 'a'}); // string longer than data
    Packet shortSoa = new Packet(0).question(QNAME, 1);
    shortSoa.record(shortSoa.pointer(12), 6, 30, concat(shortSoa.name("a"), shortSoa.name("b")));
    Packet longName = new Packet(0).question(QNAME, 1);
    StringBuilder deep = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      deep.append("x".repeat(60)).append('.');
    }
    longName.record(longName.name(deep.toString()), 1, 30, new byte[4]);

    for (byte[] wire :
        List.of(
            loop.bytes(1, 0, 0),
            forward.bytes(1, 0, 0),
            shortA.bytes(1, 0, 0),
            longA.bytes(1, 0, 0),
            badLabel.bytes(1, 0, 0),
            badTxt.bytes(0, 0, 1),
            shortSoa.bytes(0, 1, 0),
            longName.bytes(1, 0, 0),
            new Packet(0).question(QNAME, 1).bytes(1, 0, 0), // a record counted, none there
            new byte[] {0x12, 0x34, (byte) 0x81, 0, 0, 1, 0x77, 1})) {
      assertThatThrownBy(() -> new Message(wire)).as("dnsjava").isNotNull();
      assertThatThrownBy(() -> WireReply.read(wire))
          .isInstanceOf(WireReply.MalformedException.class);
    }
  }

  @Test
  void aTruncatedReplyMayEndAfterItsQuestion() throws Exception {
    EncodedQuery q = query(QNAME, RecordType.A);
    Packet p = new Packet(Flags.TC).question(QNAME, 1);
    p.record(p.pointer(12), 1, 30, new byte[2]); // cut short

    WireReply r = WireReply.read(p.bytes(1, 0, 0));

    assertThat(r.truncated()).isTrue();
    assertThat(r.answers(q)).isTrue();
    assertThat(r.addressResult(q, 64)).isNull();
  }

  /**
   * Thousands of replies of random shapes and random corruptions of them: the reader accepts
   * exactly what dnsjava accepts, and its direct answer, when it gives one, is the classifier's.
   */
  @Test
  void agreesWithDnsjavaAndTheClassifierOnRandomReplies() throws Exception {
    Random random = new Random(20261129);
    int direct = 0;
    int corrupted = 0;
    for (int i = 0; i < 3000; i++) {
      RecordType type = random.nextBoolean() ? RecordType.A : RecordType.AAAA;
      EncodedQuery q = query(QNAME, type);
      byte[] wire = randomReply(random, q).toWire();
      int maxRecords = new int[] {1, 2, 64}[random.nextInt(3)];

      QueryResult fast = direct(wire, q, maxRecords);
      if (fast != null) {
        direct++;
        assertThat(fast).as("reply %d", i).isEqualTo(classified(wire, q, maxRecords));
      }

      byte[] bad = corrupt(random, wire);
      boolean dnsjava;
      try {
        new Message(bad);
        dnsjava = true;
      } catch (Exception e) {
        dnsjava = false;
      }
      boolean ours;
      try {
        WireReply r = WireReply.read(bad);
        ours = true;
        if (r.answers(q) && r.addressResult(q, maxRecords) != null) {
          assertThat(r.addressResult(q, maxRecords))
              .as("corrupted reply %d", i)
              .isEqualTo(classified(bad, q, maxRecords));
        }
      } catch (WireReply.MalformedException e) {
        ours = false;
      }
      assertThat(ours).as("corrupted reply %d accepted", i).isEqualTo(dnsjava);
      corrupted += dnsjava ? 0 : 1;
    }
    assertThat(direct).isGreaterThan(2000); // the usual shapes are read directly
    assertThat(corrupted).isGreaterThan(300); // and the corruptions do break packets
  }

  private static Message randomReply(Random random, EncodedQuery q) throws Exception {
    int[] rcodes = {0, 0, 0, 0, 0, 0, 3, 3, 2, 5, 4};
    Message m = reply(q, rcodes[random.nextInt(rcodes.length)]);
    String[] owners = {
      QNAME, QNAME, QNAME, QNAME.toUpperCase(Locale.ROOT), "x." + ZONE, "evil.org"
    };
    String[] v4 = {"192.0.2.1", "192.0.2.2", "198.51.100.9", "10.0.0.1"};
    String[] v6 = {"2001:db8::1", "2001:db8::2", "::ffff:192.0.2.1", "fe80::1"};
    long[] ttls = {0, 1, 30, 300, 2_147_483_647L}; // dnsjava writes no larger TTL
    int answers = random.nextInt(7);
    for (int i = 0; i < answers; i++) {
      String owner = owners[random.nextInt(owners.length)];
      long ttl = ttls[random.nextInt(ttls.length)];
      int kind = random.nextInt(20);
      if (kind == 0) {
        m.addRecord(
            new CNAMERecord(name(owner), DClass.IN, ttl, name("t." + ZONE)), Section.ANSWER);
      } else if (kind < 4) {
        m.addRecord(
            q.type() == RecordType.A
                ? aaaa(owner, v6[random.nextInt(v6.length)], ttl)
                : a(owner, v4[random.nextInt(v4.length)], ttl),
            Section.ANSWER);
      } else {
        m.addRecord(
            q.type() == RecordType.A
                ? a(owner, v4[random.nextInt(v4.length)], ttl)
                : aaaa(owner, v6[random.nextInt(v6.length)], ttl),
            Section.ANSWER);
      }
    }
    switch (random.nextInt(5)) {
      case 0 ->
          m.addRecord(
              soa(ttls[random.nextInt(ttls.length)], random.nextInt(100)), Section.AUTHORITY);
      case 1 -> m.addRecord(ns(ZONE, "ns1." + ZONE), Section.AUTHORITY);
      case 2 -> {
        m.addRecord(ns(ZONE, "ns1." + ZONE), Section.AUTHORITY);
        m.addRecord(soa(30, 5), Section.AUTHORITY);
      }
      default -> {}
    }
    switch (random.nextInt(4)) {
      case 0, 1 ->
          m.addRecord(new OPTRecord(1232, random.nextInt(10) == 0 ? 1 : 0, 0), Section.ADDITIONAL);
      case 2 -> m.addRecord(a("ns1." + ZONE, "192.0.2.53", 30), Section.ADDITIONAL);
      default -> {}
    }
    return m;
  }

  /** Flips, truncates, or rewrites a byte or a count of a packet. */
  private static byte[] corrupt(Random random, byte[] wire) {
    byte[] out = wire.clone();
    switch (random.nextInt(4)) {
      case 0 -> {
        return java.util.Arrays.copyOf(out, 12 + random.nextInt(Math.max(1, out.length - 12)));
      }
      case 1 -> out[4 + 2 * random.nextInt(4) + 1] += (byte) (random.nextInt(5) - 2);
      case 2 -> {
        int at = 12 + random.nextInt(out.length - 12);
        out[at] = (byte) (random.nextBoolean() ? 0xc0 : random.nextInt(256));
      }
      default -> out[12 + random.nextInt(out.length - 12)] ^= (byte) (1 << random.nextInt(8));
    }
    return out;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** A reply written byte by byte, for shapes dnsjava does not write. */
  static final class Packet {
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final int flags;
    private int questions;

    Packet(int flag) {
      this.flags = 0x8400 | (flag == Flags.TC ? 0x0200 : 0); // QR, AA
    }

    int size() {
      return 12 + body.size();
    }

    byte[] name(String text) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (String label : text.split("\\.")) {
        if (!label.isEmpty()) {
          out.write(label.length());
          out.writeBytes(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
      }
      out.write(0);
      return out.toByteArray();
    }

    byte[] pointer(int offset) {
      return new byte[] {(byte) (0xc0 | (offset >> 8)), (byte) offset};
    }

    Packet question(String qname, int type) {
      body.writeBytes(name(qname));
      u16(type);
      u16(1);
      questions++;
      return this;
    }

    Packet record(byte[] owner, int type, long ttl, byte[] data) {
      body.writeBytes(owner);
      u16(type);
      u16(1);
      u16((int) (ttl >>> 16));
      u16((int) ttl);
      u16(data.length);
      body.writeBytes(data);
      return this;
    }

    private void u16(int v) {
      body.write(v >> 8);
      body.write(v);
    }

    byte[] bytes(int answers, int authority, int additional) {
      byte[] b = body.toByteArray();
      byte[] out = new byte[12 + b.length];
      int[] header = {0x1234, flags, questions, answers, authority, additional};
      for (int i = 0; i < header.length; i++) {
        out[2 * i] = (byte) (header[i] >> 8);
        out[2 * i + 1] = (byte) header[i];
      }
      System.arraycopy(b, 0, out, 12, b.length);
      return out;
    }
  }
}
