package dev.cairn.dnsresponder.answer;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.ExtendedFlags;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.Type;

class QueryAnswererTest {

  private static final InetAddress CLIENT = address("198.51.100.7");

  private final QueryAnswerer answerer =
      new QueryAnswerer(
          new TargetSelector(
              new SplittableRandom(7),
              GeoLocator.NONE,
              List.of("datacenter"),
              WeightedAnswer.ONE,
              32),
          1232,
          32);

  private final AnswerView view =
      AnswerView.serving(
          ZoneFixtures.snapshot(
              endpoint("a", 0, "app.cloud.example.com", "A", 120, "192.0.2.1", "192.0.2.2"),
              endpoint("a", 1, "app.cloud.example.com", "TXT", 0, "owner=a"),
              endpoint("a", 2, "v6.cloud.example.com", "AAAA", 0, "2001:db8::1"),
              endpoint("a", 3, "www.cloud.example.com", "CNAME", 0, "app.cloud.example.com"),
              endpoint("a", 4, "ext.cloud.example.com", "CNAME", 0, "target.example.net"),
              endpoint("a", 5, "dangling.cloud.example.com", "CNAME", 0, "gone.cloud.example.com"),
              endpoint("a", 6, "deep.app2.cloud.example.com", "A", 0, "192.0.2.3"),
              endpoint("a", 7, "loop1.cloud.example.com", "CNAME", 0, "loop2.cloud.example.com"),
              endpoint("a", 8, "loop2.cloud.example.com", "CNAME", 0, "loop1.cloud.example.com")),
          ServingState.SYNCED);

  static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static Message query(String name, int type) {
    try {
      Message query = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
      query.getHeader().unsetFlag(Flags.RD);
      return query;
    } catch (org.xbill.DNS.TextParseException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static Message withEdns(Message query, int size, EDNSOption... options) {
    query.addRecord(new OPTRecord(size, 0, 0, ExtendedFlags.DO, options), Section.ADDITIONAL);
    return query;
  }

  private Message answer(Message query) {
    return roundTrip(answerer.answer(view, query, CLIENT), false);
  }

  private static Message roundTrip(Reply reply, boolean udp) {
    try {
      return new Message(reply.wire(udp));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> answers(Message m) {
    List<String> out = new ArrayList<>();
    for (Record r : m.getSection(Section.ANSWER)) {
      out.add(
          r.getName()
              + " "
              + r.getTTL()
              + " "
              + Type.string(r.getType())
              + " "
              + r.rdataToString());
    }
    return out;
  }

  @Test
  void answersAddressesAuthoritativelyWithRdCopiedAndRaClear() {
    Message query = query("app.cloud.example.com.", Type.A);
    query.getHeader().setFlag(Flags.RD);

    Message r = answer(query);

    assertThat(r.getHeader().getID()).isEqualTo(query.getHeader().getID());
    assertThat(r.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(r.getHeader().getFlag(Flags.QR)).isTrue();
    assertThat(r.getHeader().getFlag(Flags.AA)).isTrue();
    assertThat(r.getHeader().getFlag(Flags.RD)).isTrue();
    assertThat(r.getHeader().getFlag(Flags.RA)).isFalse();
    assertThat(answers(r))
        .containsExactlyInAnyOrder(
            "app.cloud.example.com. 120 A 192.0.2.1", "app.cloud.example.com. 120 A 192.0.2.2");
    assertThat(r.getSection(Section.AUTHORITY)).isEmpty();
  }

  @Test
  void leavesRdClearWhenTheQueryHadNone() {
    Message r = answer(query("app.cloud.example.com.", Type.A));

    assertThat(r.getHeader().getFlag(Flags.RD)).isFalse();
  }

  @Test
  void answersAaaaOnlyFromAaaaRecordsNeverWithZeroAddresses() {
    assertThat(answers(answer(query("v6.cloud.example.com.", Type.AAAA))))
        .containsExactly("v6.cloud.example.com. 60 AAAA 2001:db8:0:0:0:0:0:1");
    Message aaaaAtV4Name = answer(query("app.cloud.example.com.", Type.AAAA));
    assertThat(aaaaAtV4Name.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(aaaaAtV4Name.getSection(Section.ANSWER)).isEmpty();
  }

  @Test
  void answersTxtWithOneRecordPerTarget() {
    assertThat(answers(answer(query("app.cloud.example.com.", Type.TXT))))
        .containsExactly("app.cloud.example.com. 60 TXT \"owner=a\"");
  }

  @Test
  void splitsLongTxtTargetsIntoCharacterStringsAndKeepsSpecialBytes() {
    String text = "x".repeat(300) + " \"quoted\" back\\slash é";
    AnswerView v =
        AnswerView.serving(
            ZoneFixtures.snapshot(endpoint("a", 0, "t.cloud.example.com", "TXT", 0, text)),
            ServingState.SYNCED);

    Message r =
        roundTrip(answerer.answer(v, query("t.cloud.example.com.", Type.TXT), CLIENT), false);

    TXTRecord txt = (TXTRecord) r.getSection(Section.ANSWER).get(0);
    assertThat(txt.getStringsAsByteArrays()).hasSize(2);
    assertThat(txt.getStringsAsByteArrays().get(0)).hasSize(255);
    StringBuilder joined = new StringBuilder();
    for (byte[] part : txt.getStringsAsByteArrays()) {
      joined.append(new String(part, java.nio.charset.StandardCharsets.ISO_8859_1));
    }
    assertThat(
            new String(
                joined.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(text);
  }

  @Test
  void answersCnameAndFollowsItInsideTheZone() {
    Message a = answer(query("www.cloud.example.com.", Type.A));
    assertThat(answers(a).get(0))
        .isEqualTo("www.cloud.example.com. 60 CNAME app.cloud.example.com.");
    assertThat(answers(a)).hasSize(3);
    assertThat(a.getRcode()).isEqualTo(Rcode.NOERROR);

    Message cname = answer(query("www.cloud.example.com.", Type.CNAME));
    assertThat(answers(cname))
        .containsExactly("www.cloud.example.com. 60 CNAME app.cloud.example.com.");

    Message txt = answer(query("www.cloud.example.com.", Type.TXT));
    assertThat(answers(txt)).hasSize(2);
  }

  @Test
  void aCnameOutOfZoneEndsTheChainWithNoError() {
    Message r = answer(query("ext.cloud.example.com.", Type.A));

    assertThat(r.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(answers(r)).containsExactly("ext.cloud.example.com. 60 CNAME target.example.net.");
    assertThat(r.getSection(Section.AUTHORITY)).isEmpty();
  }

  @Test
  void aDanglingInZoneCnameGivesNxdomainForItsTarget() {
    Message r = answer(query("dangling.cloud.example.com.", Type.A));

    assertThat(r.getRcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(answers(r)).hasSize(1);
    assertThat(r.getSection(Section.AUTHORITY)).singleElement().isInstanceOf(SOARecord.class);
  }

  @Test
  void aCnameLoopStops() {
    Message r = answer(query("loop1.cloud.example.com.", Type.A));

    assertThat(r.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(answers(r)).hasSizeLessThanOrEqualTo(QueryAnswerer.MAX_CHAIN);
  }

  @Test
  void nodataForAnotherTypeCarriesTheSoaWithTheNegativeTtl() {
    Message r = answer(query("app.cloud.example.com.", Type.MX));

    assertThat(r.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(r.getHeader().getFlag(Flags.AA)).isTrue();
    assertThat(r.getSection(Section.ANSWER)).isEmpty();
    SOARecord soa = (SOARecord) r.getSection(Section.AUTHORITY).get(0);
    assertThat(soa.getName().toString()).isEqualTo("cloud.example.com.");
    assertThat(soa.getTTL()).isEqualTo(30);
    assertThat(soa.getMinimum()).isEqualTo(30);
    assertThat(soa.getHost().toString()).isEqualTo("ns1.cloud.example.com.");
    assertThat(soa.getAdmin().toString()).isEqualTo("hostmaster.cloud.example.com.");
    assertThat(soa.getSerial()).isEqualTo(ZoneFixtures.NOW.getEpochSecond());
  }

  @Test
  void nxdomainForAnUnknownName() {
    Message r = answer(query("nope.cloud.example.com.", Type.A));

    assertThat(r.getRcode()).isEqualTo(Rcode.NXDOMAIN);
    assertThat(r.getHeader().getFlag(Flags.AA)).isTrue();
    assertThat(r.getSection(Section.ANSWER)).isEmpty();
    assertThat(r.getSection(Section.AUTHORITY)).singleElement().isInstanceOf(SOARecord.class);
  }

  @Test
  void anEmptyNonTerminalIsNodataNotNxdomain() {
    Message r = answer(query("app2.cloud.example.com.", Type.A));

    assertThat(r.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(r.getSection(Section.ANSWER)).isEmpty();
    assertThat(r.getSection(Section.AUTHORITY)).singleElement().isInstanceOf(SOARecord.class);
  }

  @Test
  void answersSoaAndNsWithGlueAtTheApex() {
    Message soa = answer(query("cloud.example.com.", Type.SOA));
    assertThat(answers(soa))
        .singleElement()
        .asString()
        .startsWith(
            "cloud.example.com. 30 SOA ns1.cloud.example.com. hostmaster.cloud.example.com.");

    Message ns = answer(query("cloud.example.com.", Type.NS));
    assertThat(answers(ns))
        .containsExactly(
            "cloud.example.com. 3600 NS ns1.cloud.example.com.",
            "cloud.example.com. 3600 NS ns.other.example.net.");
    assertThat(ns.getSection(Section.ADDITIONAL))
        .extracting(r -> r.getName() + " " + Type.string(r.getType()) + " " + r.rdataToString())
        .containsExactly(
            "ns1.cloud.example.com. A 192.0.2.53",
            "ns1.cloud.example.com. AAAA 2001:db8:0:0:0:0:0:53");
    Message glue = answer(query("ns1.cloud.example.com.", Type.A));
    assertThat(answers(glue)).containsExactly("ns1.cloud.example.com. 3600 A 192.0.2.53");
  }

  @Test
  void theApexWithoutAddressRecordsIsNodataForA() {
    Message r = answer(query("cloud.example.com.", Type.A));

    assertThat(r.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(r.getSection(Section.ANSWER)).isEmpty();
    assertThat(r.getSection(Section.AUTHORITY)).singleElement().isInstanceOf(SOARecord.class);
  }

  @Test
  void refusesNamesOutsideTheZonesWithoutAa() {
    Message r = answer(query("www.example.org.", Type.A));

    assertThat(r.getRcode()).isEqualTo(Rcode.REFUSED);
    assertThat(r.getHeader().getFlag(Flags.AA)).isFalse();
    assertThat(r.getSection(Section.ANSWER)).isEmpty();
    Message parent = answer(query("example.com.", Type.A));
    assertThat(parent.getRcode()).isEqualTo(Rcode.REFUSED);
  }

  @Test
  void servfailsInZoneWhileUnsyncedAndRefusesOutside() {
    AnswerView unsynced = AnswerView.unsynced(ZoneFixtures.zones());

    Message in =
        roundTrip(answerer.answer(unsynced, query("app.cloud.example.com.", Type.A), CLIENT), true);
    Message out =
        roundTrip(answerer.answer(unsynced, query("www.example.org.", Type.A), CLIENT), true);

    assertThat(in.getRcode()).isEqualTo(Rcode.SERVFAIL);
    assertThat(in.getHeader().getFlag(Flags.AA)).isFalse();
    assertThat(out.getRcode()).isEqualTo(Rcode.REFUSED);
  }

  @Test
  void matchesNamesCaseInsensitivelyAndKeepsTheQuestionsSpelling() {
    Message r = answer(query("ApP.CLOUD.example.COM.", Type.A));

    assertThat(r.getQuestion().getName().toString()).isEqualTo("ApP.CLOUD.example.COM.");
    assertThat(r.getSection(Section.ANSWER))
        .allSatisfy(a -> assertThat(a.getName().toString()).isEqualTo("ApP.CLOUD.example.COM."));
  }

  @Test
  void echoesEdnsWithOurSizeAndTheDoBit() {
    Message r = answer(withEdns(query("app.cloud.example.com.", Type.A), 4096));

    OPTRecord opt = r.getOPT();
    assertThat(opt).isNotNull();
    assertThat(opt.getPayloadSize()).isEqualTo(1232);
    assertThat(opt.getVersion()).isZero();
    assertThat(opt.getFlags() & ExtendedFlags.DO).isEqualTo(ExtendedFlags.DO);
    Message plain = answer(query("app.cloud.example.com.", Type.A));
    assertThat(plain.getOPT()).isNull();
  }

  @Test
  void answersBadversForEdnsVersionsAboveZero() {
    Message query = query("app.cloud.example.com.", Type.A);
    query.addRecord(new OPTRecord(1232, 0, 1, 0), Section.ADDITIONAL);

    Message r = answer(query);

    assertThat(r.getRcode()).isEqualTo(Rcode.BADVERS);
    assertThat(r.getOPT().getVersion()).isZero();
    assertThat(r.getSection(Section.ANSWER)).isEmpty();
  }

  @Test
  void truncatesWholeRrsetsOverUdpAndSendsEverythingOverTcp() {
    List<String> many = new ArrayList<>();
    for (int i = 1; i <= 30; i++) {
      many.add("192.0.2." + i);
    }
    AnswerView big =
        AnswerView.serving(
            ZoneFixtures.snapshot(
                endpoint("a", 0, "big.cloud.example.com", "A", 0, many.toArray(String[]::new))),
            ServingState.SYNCED);
    String longName = "big.cloud.example.com.";

    Reply noEdns = answerer.answer(big, query(longName, Type.A), CLIENT);
    Message udp = roundTrip(noEdns, true);
    Message tcp = roundTrip(noEdns, false);
    Reply edns = answerer.answer(big, withEdns(query(longName, Type.A), 4096), CLIENT);
    Reply smallEdns = answerer.answer(big, withEdns(query(longName, Type.A), 512), CLIENT);

    assertThat(noEdns.udpLimit()).isEqualTo(512);
    assertThat(noEdns.wire(false).length).isGreaterThan(512); // 30 records do not fit 512 octets
    assertThat(udp.getHeader().getFlag(Flags.TC)).isTrue();
    assertThat(udp.getSection(Section.ANSWER)).isEmpty(); // the one RRset is dropped whole
    assertThat(udp.getQuestion()).isNotNull();
    assertThat(tcp.getHeader().getFlag(Flags.TC)).isFalse();
    assertThat(tcp.getSection(Section.ANSWER)).hasSize(30);
    Message ednsUdp = roundTrip(edns, true);
    assertThat(ednsUdp.getHeader().getFlag(Flags.TC)).isFalse();
    assertThat(ednsUdp.getSection(Section.ANSWER)).hasSize(30);
    Message smallUdp = roundTrip(smallEdns, true);
    assertThat(smallUdp.getHeader().getFlag(Flags.TC)).isTrue();
    assertThat(smallUdp.getOPT()).isNotNull();
  }

  @Test
  void capsTheRecordsOfOneAnswer() {
    List<String> many = new ArrayList<>();
    for (int i = 1; i <= 40; i++) {
      many.add("192.0.2." + i);
    }
    AnswerView big =
        AnswerView.serving(
            ZoneFixtures.snapshot(
                endpoint("a", 0, "big.cloud.example.com", "A", 0, many.toArray(String[]::new))),
            ServingState.SYNCED);

    Message r =
        roundTrip(answerer.answer(big, query("big.cloud.example.com.", Type.A), CLIENT), false);

    assertThat(r.getSection(Section.ANSWER)).hasSize(32);
  }

  @Test
  void answersAnyWithTheRfc8482Hinfo() {
    Message r = answer(query("app.cloud.example.com.", Type.ANY));

    assertThat(answers(r)).containsExactly("app.cloud.example.com. 30 HINFO \"RFC8482\" \"\"");
  }

  @Test
  void refusesZoneTransfersAndOtherClasses() {
    assertThat(answer(query("cloud.example.com.", Type.AXFR)).getRcode()).isEqualTo(Rcode.REFUSED);
    Message chaos;
    try {
      chaos =
          Message.newQuery(Record.newRecord(Name.fromString("version.bind."), Type.TXT, DClass.CH));
    } catch (org.xbill.DNS.TextParseException e) {
      throw new AssertionError(e);
    }
    assertThat(answer(chaos).getRcode()).isEqualTo(Rcode.REFUSED);
  }

  @Test
  void notimpForOpcodesOtherThanQuery() {
    Message notify = query("cloud.example.com.", Type.SOA);
    notify.getHeader().setOpcode(Opcode.NOTIFY);

    Message r = answer(notify);

    assertThat(r.getRcode()).isEqualTo(Rcode.NOTIMP);
    assertThat(r.getHeader().getOpcode()).isEqualTo(Opcode.NOTIFY);
  }

  @Test
  void formerrForQueriesWithoutExactlyOneQuestion() {
    Message none = new Message();
    Message two = query("app.cloud.example.com.", Type.A);
    two.addRecord(query("www.cloud.example.com.", Type.A).getQuestion(), Section.QUESTION);

    assertThat(answer(none).getRcode()).isEqualTo(Rcode.FORMERR);
    assertThat(answer(two).getRcode()).isEqualTo(Rcode.FORMERR);
  }

  @Test
  void formerrForMalformedMessagesWithAHeaderAndSilenceForGarbage() throws Exception {
    byte[] valid = query("app.cloud.example.com.", Type.A).toWire();
    byte[] cut = java.util.Arrays.copyOf(valid, valid.length - 3);

    byte[] formerr = QueryAnswerer.formatError(cut);

    Message r = new Message(formerr);
    assertThat(r.getRcode()).isEqualTo(Rcode.FORMERR);
    assertThat(r.getHeader().getID()).isEqualTo(new Message(valid).getHeader().getID());
    assertThat(QueryAnswerer.formatError(new byte[] {1, 2, 3})).isNull();
    byte[] response = java.util.Arrays.copyOf(cut, cut.length);
    response[2] |= (byte) 0x80; // QR: a response is never answered
    assertThat(QueryAnswerer.formatError(response)).isNull();
  }

  @Test
  void echoesTheClientSubnetWithScopeZeroWhenTheAnswerDoesNotDependOnIt() {
    Message r =
        answer(
            withEdns(
                query("app.cloud.example.com.", Type.A),
                1232,
                new ClientSubnetOption(24, address("203.0.113.0"))));

    ClientSubnetOption ecs =
        (ClientSubnetOption) r.getOPT().getOptions(EDNSOption.Code.CLIENT_SUBNET).get(0);
    assertThat(ecs.getSourcePrefixLength()).isEqualTo(24);
    assertThat(ecs.getScopePrefixLength()).isZero();
    assertThat(ecs.getAddress().getHostAddress()).isEqualTo("203.0.113.0");
  }

  @Test
  void geoRoutesByTheClientSubnetAndEchoesTheScope() {
    GeoLocator geo =
        (address, field) -> {
          String a = address.getHostAddress();
          if (a.startsWith("203.0.113.")) {
            return java.util.Optional.of(new GeoLocator.GeoMatch("eu", 20));
          }
          if (a.startsWith("198.51.100.")) {
            return java.util.Optional.of(new GeoLocator.GeoMatch("us", 16));
          }
          return java.util.Optional.empty();
        };
    QueryAnswerer geoAnswerer =
        new QueryAnswerer(
            new TargetSelector(
                new SplittableRandom(1), geo, List.of("datacenter"), WeightedAnswer.ONE, 32),
            1232,
            32);
    EndpointInput geoEndpoint =
        labelled(
            "g",
            "geo.cloud.example.com",
            "A",
            Map.of("strategy", "geoip", "geo-eu-0", "192.0.2.10", "geo-us-0", "192.0.2.20"),
            "192.0.2.10",
            "192.0.2.20");
    AnswerView v = AnswerView.serving(ZoneFixtures.snapshot(geoEndpoint), ServingState.SYNCED);

    Message viaEcs =
        roundTrip(
            geoAnswerer.answer(
                v,
                withEdns(
                    query("geo.cloud.example.com.", Type.A),
                    1232,
                    new ClientSubnetOption(24, address("203.0.113.0"))),
                CLIENT),
            true);
    Message viaSource =
        roundTrip(geoAnswerer.answer(v, query("geo.cloud.example.com.", Type.A), CLIENT), true);
    Message unknown =
        roundTrip(
            geoAnswerer.answer(v, query("geo.cloud.example.com.", Type.A), address("192.0.2.200")),
            true);

    assertThat(answers(viaEcs)).containsExactly("geo.cloud.example.com. 60 A 192.0.2.10");
    ClientSubnetOption ecs =
        (ClientSubnetOption) viaEcs.getOPT().getOptions(EDNSOption.Code.CLIENT_SUBNET).get(0);
    assertThat(ecs.getScopePrefixLength()).isEqualTo(20);
    assertThat(answers(viaSource)).containsExactly("geo.cloud.example.com. 60 A 192.0.2.20");
    assertThat(unknown.getSection(Section.ANSWER)).hasSize(2);
  }

  @Test
  void aTruncatedSlipCarriesOnlyTheQuestion() throws Exception {
    Reply reply =
        answerer.answer(view, withEdns(query("app.cloud.example.com.", Type.A), 1232), CLIENT);

    Message slip = new Message(reply.truncatedWire());

    assertThat(slip.getHeader().getFlag(Flags.TC)).isTrue();
    assertThat(slip.getSection(Section.ANSWER)).isEmpty();
    assertThat(slip.getQuestion().getName().toString()).isEqualTo("app.cloud.example.com.");
    assertThat(slip.getOPT()).isNotNull();
    assertThat(slip.getSection(Section.ADDITIONAL)).allMatch(r -> !(r instanceof ARecord));
  }

  @Test
  void lookupKeysAreLowerCaseAndNeutraliseOctetsNoStoredNameHas() throws Exception {
    assertThat(QueryAnswerer.key(Name.fromString("ApP.Cloud.EXAMPLE.com.")))
        .isEqualTo("app.cloud.example.com");
    assertThat(QueryAnswerer.key(Name.fromString("a\\.b.cloud.example.com.")))
        .isEqualTo("a\\b.cloud.example.com");
    assertThat(QueryAnswerer.key(Name.fromString("x\\032y.cloud.example.com.")))
        .isEqualTo("x\\y.cloud.example.com");
    assertThat(QueryAnswerer.key(Name.root)).isEmpty();
    Message r = answer(query("a\\.b.cloud.example.com.", Type.A));
    assertThat(r.getRcode()).isEqualTo(Rcode.NXDOMAIN);
  }
}
