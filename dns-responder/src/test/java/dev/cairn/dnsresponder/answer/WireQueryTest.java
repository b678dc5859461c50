package dev.cairn.dnsresponder.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.CookieOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.ExtendedFlags;
import org.xbill.DNS.Flags;
import org.xbill.DNS.GenericEDNSOption;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSIDOption;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.TcpKeepaliveOption;
import org.xbill.DNS.Type;

class WireQueryTest {

  private final WireQuery query = new WireQuery();

  static byte[] wire(String name, int type) {
    try {
      Message m = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
      m.getHeader().setID(0x1234);
      return m.toWire();
    } catch (org.xbill.DNS.TextParseException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static byte[] withOpt(String name, int type, int version, EDNSOption... options) {
    try {
      Message m = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
      m.addRecord(new OPTRecord(1400, 0, version, ExtendedFlags.DO, options), Section.ADDITIONAL);
      return m.toWire();
    } catch (org.xbill.DNS.TextParseException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private boolean read(byte[] bytes) {
    return query.read(bytes, 0, bytes.length);
  }

  @Test
  void readsAPlainQueryAndLowerCasesTheNameForLookUps() {
    byte[] bytes = wire("ApP.Cloud.EXAMPLE.com.", Type.AAAA);

    assertThat(read(bytes)).isTrue();

    assertThat(query.id()).isEqualTo(0x1234);
    assertThat(query.qtype()).isEqualTo(Type.AAAA);
    assertThat(query.recursionDesired()).isTrue();
    assertThat(query.edns()).isFalse();
    byte[] lower = Arrays.copyOf(query.lowerName(), query.nameLength());
    assertThat(lower).isEqualTo(WireIndex.wire("app.cloud.example.com"));
    assertThat(query.nameHash()).isEqualTo(WireQuery.hash(lower, 0, lower.length - 1));
    assertThat(query.labelCount()).isEqualTo(4);
    assertThat(query.labelStart(1)).isEqualTo(4); // after \3app
    // the question as received, spelling kept
    String asReceived =
        new String(query.message(), query.questionStart() + 1, 3, StandardCharsets.US_ASCII);
    assertThat(asReceived).isEqualTo("ApP");
    assertThat(query.questionLength()).isEqualTo(query.nameLength() + 4);
  }

  @Test
  void readsAMessageInTheMiddleOfABuffer() {
    byte[] bytes = wire("app.cloud.example.com.", Type.A);
    byte[] padded = new byte[bytes.length + 10];
    System.arraycopy(bytes, 0, padded, 7, bytes.length);

    assertThat(query.read(padded, 7, bytes.length)).isTrue();
    assertThat(query.questionStart()).isEqualTo(7 + 12);
    assertThat(query.id()).isEqualTo(0x1234);
  }

  @Test
  void readsEdnsWithInertOptions() {
    byte[] bytes =
        withOpt(
            "app.cloud.example.com.",
            Type.A,
            0,
            new CookieOption(new byte[8]),
            new NSIDOption(new byte[0]),
            new GenericEDNSOption(65001, new byte[] {1, 2, 3}));

    assertThat(read(bytes)).isTrue();

    assertThat(query.edns()).isTrue();
    assertThat(query.payloadSize()).isEqualTo(1400);
    assertThat(query.ednsFlags()).isEqualTo(ExtendedFlags.DO);
  }

  @Test
  void acceptsTheRootNameAndTheLongestName() {
    assertThat(read(wire(".", Type.NS))).isTrue();
    assertThat(query.nameLength()).isEqualTo(1);
    assertThat(query.labelCount()).isZero();

    String label = "a".repeat(63);
    String longest = label + "." + label + "." + label + "." + "b".repeat(61) + "."; // 255 octets
    assertThat(read(wire(longest, Type.A))).isTrue();
    assertThat(query.nameLength()).isEqualTo(255);
  }

  @Test
  void leavesEverythingElseToTheFullParser() throws Exception {
    String name = "app.cloud.example.com.";
    byte[] plain = wire(name, Type.A);

    // EDNS the answer depends on, or that dnsjava checks
    assertThat(read(withOpt(name, Type.A, 1))).as("EDNS version 1").isFalse();
    assertThat(
            read(
                withOpt(
                    name,
                    Type.A,
                    0,
                    new ClientSubnetOption(24, java.net.InetAddress.getByName("192.0.2.0")))))
        .as("client subnet")
        .isFalse();
    assertThat(read(withOpt(name, Type.A, 0, new TcpKeepaliveOption()))).as("keepalive").isFalse();
    byte[] badCookie = withOpt(name, Type.A, 0, new GenericEDNSOption(10, new byte[9]));
    assertThat(read(badCookie)).as("a 9-octet cookie").isFalse();
    assertThat(read(withOpt(name, Type.A, 0, new GenericEDNSOption(10, new byte[24]))))
        .as("a client and server cookie")
        .isTrue();

    // header shapes
    assertThat(read(withFlag(plain, 2, 0x80))).as("QR").isFalse();
    Message notify = new Message(plain);
    notify.getHeader().setOpcode(Opcode.NOTIFY);
    assertThat(read(notify.toWire())).as("opcode").isFalse();
    assertThat(read(withByte(plain, 5, 2))).as("two questions").isFalse();
    assertThat(read(withByte(plain, 5, 0))).as("no question").isFalse();
    Message withAnswer = new Message(plain);
    withAnswer.addRecord(new TXTRecord(Name.fromString(name), DClass.IN, 0, "x"), Section.ANSWER);
    assertThat(read(withAnswer.toWire())).as("an answer record").isFalse();
    Message twoAdditional = new Message(withOpt(name, Type.A, 0));
    twoAdditional.addRecord(
        new TXTRecord(Name.fromString(name), DClass.IN, 0, "x"), Section.ADDITIONAL);
    assertThat(read(twoAdditional.toWire())).as("OPT and another record").isFalse();
    Message txtAdditional = new Message(plain);
    txtAdditional.addRecord(
        new TXTRecord(Name.fromString(name), DClass.IN, 0, "x"), Section.ADDITIONAL);
    assertThat(read(txtAdditional.toWire())).as("a non-OPT additional record").isFalse();

    // question shapes
    Message chaos = Message.newQuery(Record.newRecord(Name.fromString(name), Type.TXT, DClass.CH));
    assertThat(read(chaos.toWire())).as("class CH").isFalse();
    byte[] pointer = Arrays.copyOf(plain, plain.length);
    pointer[12] = (byte) 0xC0; // a compression pointer in the question name
    assertThat(read(pointer)).as("pointer").isFalse();
    assertThat(read(withByte(plain, 12, 0x40))).as("extended label type").isFalse();

    // cut short anywhere
    for (int length = 0; length < plain.length; length++) {
      assertThat(query.read(plain, 0, length)).as("cut at %d", length).isFalse();
    }
    byte[] edns = withOpt(name, Type.A, 0, new CookieOption(new byte[8]));
    for (int length = plain.length; length < edns.length; length++) {
      assertThat(query.read(edns, 0, length)).as("OPT cut at %d", length).isFalse();
    }
  }

  @Test
  void ignoresTrailingOctetsAsTheFullParserDoes() throws Exception {
    byte[] plain = wire("app.cloud.example.com.", Type.A);
    byte[] longer = Arrays.copyOf(plain, plain.length + 3);

    assertThat(read(longer)).isTrue();
    assertThat(new Message(longer).getQuestion().getName().toString())
        .isEqualTo("app.cloud.example.com.");
  }

  @Test
  void neverAcceptsWhatDnsjavaRejects() {
    // Every single-octet corruption of a query with EDNS: whatever the fast reader accepts,
    // dnsjava parses too, to the same question type and EDNS presence.
    byte[] edns = withOpt("app.cloud.example.com.", Type.A, 0, new CookieOption(new byte[8]));
    int[] values = {0x00, 0x01, 0x08, 0x0A, 0x29, 0x3F, 0x40, 0x80, 0xC0, 0xFF};
    for (int at = 0; at < edns.length; at++) {
      for (int value : values) {
        byte[] corrupted = withByte(edns, at, value);
        if (!read(corrupted)) {
          continue;
        }
        Message parsed;
        try {
          parsed = new Message(corrupted);
        } catch (java.io.IOException e) {
          throw new AssertionError("accepted what dnsjava rejects: octet " + at + " = " + value, e);
        }
        assertThat(parsed.getHeader().getFlag(Flags.QR)).isFalse();
        assertThat(parsed.getQuestion().getType()).isEqualTo(query.qtype());
        assertThat(parsed.getQuestion().getDClass()).isEqualTo(DClass.IN);
        assertThat(parsed.getOPT() != null).isEqualTo(query.edns());
        assertThat(parsed.getHeader().getID()).isEqualTo(query.id());
      }
    }
  }

  private static byte[] withByte(byte[] bytes, int at, int value) {
    byte[] copy = Arrays.copyOf(bytes, bytes.length);
    copy[at] = (byte) value;
    return copy;
  }

  private static byte[] withFlag(byte[] bytes, int at, int bit) {
    byte[] copy = Arrays.copyOf(bytes, bytes.length);
    copy[at] |= (byte) bit;
    return copy;
  }
}
