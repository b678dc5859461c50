package dev.cairn.dnsresponder.server;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.GeoLocator;
import dev.cairn.dnsresponder.answer.QueryAnswerer;
import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.answer.TargetSelector;
import dev.cairn.dnsresponder.answer.WeightedAnswer;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/** Both paths through the processor: counting, rate limiting, malformed input. */
class QueryProcessorTest {

  private static final InetAddress CLIENT = address("198.51.100.7");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AnswerView view =
      AnswerView.serving(
          ZoneFixtures.snapshot(
              endpoint("a", 0, "app.cloud.example.com", "A", 120, "192.0.2.1", "192.0.2.2")),
          ServingState.SYNCED);

  private static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private QueryProcessor processor(ResponseRateLimiter limiter) {
    QueryAnswerer answerer =
        new QueryAnswerer(
            new TargetSelector(
                new SplittableRandom(1),
                GeoLocator.NONE,
                List.of("datacenter"),
                WeightedAnswer.ONE,
                32),
            1232,
            32);
    return new QueryProcessor(() -> view, answerer, limiter, new ResponderMetrics(registry));
  }

  private static byte[] query(String name, int type, boolean ecs) throws IOException {
    Message query = Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
    if (ecs) {
      query.addRecord(
          new OPTRecord(1232, 0, 0, 0, List.of(new ClientSubnetOption(24, address("203.0.113.0")))),
          Section.ADDITIONAL);
    }
    return query.toWire();
  }

  private double count(String rcode, String qtype, String transport) {
    var counter =
        registry
            .find("responder.queries")
            .tag("rcode", rcode)
            .tag("qtype", qtype)
            .tag("transport", transport)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void countsAnswersOfBothPathsByRcodeTypeAndTransport() throws Exception {
    QueryProcessor processor = processor(null);

    Message fast =
        new Message(
            processor.process(query("app.cloud.example.com.", Type.A, false), CLIENT, true));
    Message full =
        new Message(processor.process(query("app.cloud.example.com.", Type.A, true), CLIENT, true));
    processor.process(query("nope.cloud.example.com.", Type.MX, false), CLIENT, false);
    processor.process(query("example.org.", Type.AAAA, true), CLIENT, true);

    assertThat(fast.getSection(Section.ANSWER)).hasSize(2);
    assertThat(full.getSection(Section.ANSWER)).hasSize(2);
    assertThat(full.getOPT().getOptions()).hasSize(1); // the subnet echo: the full path answered
    assertThat(count("NOERROR", "A", "udp")).isEqualTo(2);
    assertThat(count("NXDOMAIN", "OTHER", "tcp")).isEqualTo(1);
    assertThat(count("REFUSED", "AAAA", "udp")).isEqualTo(1);
    assertThat(registry.get("responder.query.latency").timer().count()).isEqualTo(4);
  }

  @Test
  void rateLimitsFastAnswersLikeFullOnes() throws Exception {
    // One response a second, every second limited one slipped.
    QueryProcessor fast = processor(new ResponseRateLimiter(1, 2, 100));
    QueryProcessor full = processor(new ResponseRateLimiter(1, 2, 100));
    byte[] common = query("app.cloud.example.com.", Type.A, false);
    byte[] withSubnet = query("app.cloud.example.com.", Type.A, true);

    for (int i = 0; i < 5; i++) {
      byte[] a = fast.process(common, CLIENT, true);
      byte[] b = full.process(withSubnet, CLIENT, true);
      assertThat(a == null).as("query %d", i).isEqualTo(b == null);
      if (a != null) {
        Message m = new Message(a);
        assertThat(m.getHeader().getFlag(Flags.TC))
            .isEqualTo(new Message(b).getHeader().getFlag(Flags.TC));
        assertThat(m.getSection(Section.ANSWER).size())
            .isEqualTo(new Message(b).getSection(Section.ANSWER).size());
      }
    }
    // SEND, DROP, SLIP, DROP, SLIP on each path
    assertThat(
            registry
                .get("responder.responses.rate.limited")
                .tag("action", "slip")
                .counter()
                .count())
        .isEqualTo(4);
    assertThat(
            registry
                .get("responder.responses.rate.limited")
                .tag("action", "drop")
                .counter()
                .count())
        .isEqualTo(4);
    // TCP is never limited
    assertThat(fast.process(common, CLIENT, false)).isNotNull();
  }

  @Test
  void leavesMalformedMessagesAndResponsesToTheFullPath() throws Exception {
    QueryProcessor processor = processor(null);
    byte[] valid = query("app.cloud.example.com.", Type.A, false);
    byte[] cut = Arrays.copyOf(valid, valid.length - 2);
    byte[] response = Arrays.copyOf(valid, valid.length);
    response[2] |= (byte) 0x80;

    assertThat(new Message(processor.process(cut, CLIENT, true)).getRcode())
        .isEqualTo(Rcode.FORMERR);
    assertThat(processor.process(response, CLIENT, true)).isNull();
    assertThat(processor.process(new byte[] {1, 2, 3}, CLIENT, true)).isNull();
    assertThat(registry.get("responder.queries.dropped").counter().count()).isEqualTo(2);
  }

  @Test
  void answersAQueryInTheMiddleOfABufferIntoTheWorkspace() throws Exception {
    QueryProcessor processor = processor(null);
    QueryProcessor.Workspace workspace = processor.workspace();
    byte[] query = query("APP.cloud.example.com.", Type.A, false);
    byte[] buffer = new byte[query.length + 20];
    System.arraycopy(query, 0, buffer, 9, query.length);

    ByteBuffer response = processor.process(buffer, 9, query.length, CLIENT, true, workspace);

    byte[] bytes = new byte[response.remaining()];
    response.get(bytes);
    Message m = new Message(bytes);
    assertThat(m.getHeader().getID()).isEqualTo(new Message(query).getHeader().getID());
    assertThat(m.getQuestion().getName().toString()).isEqualTo("APP.cloud.example.com.");
    assertThat(m.getSection(Section.ANSWER)).hasSize(2);
  }
}
