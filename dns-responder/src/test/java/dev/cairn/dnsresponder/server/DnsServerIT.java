package dev.cairn.dnsresponder.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.answer.GeoLocator;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/** The listener over real sockets, queried with dnsjava's resolver and raw UDP/TCP. */
class DnsServerIT {

  private static RunningResponder responder;

  @BeforeAll
  static void start() {
    responder = new RunningResponder(GeoLocator.NONE, null);
  }

  @AfterAll
  static void stop() {
    responder.close();
  }

  private static SimpleResolver resolver() throws Exception {
    SimpleResolver resolver = new SimpleResolver(InetAddress.getLoopbackAddress());
    resolver.setPort(responder.port());
    resolver.setTimeout(Duration.ofSeconds(5));
    return resolver;
  }

  private static Message query(String name, int type) throws Exception {
    return Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN));
  }

  @Test
  void usesTheSamePortForUdpAndTcp() {
    assertThat(responder.server.tcpPort()).isEqualTo(responder.server.udpPort()).isPositive();
  }

  @Test
  void answersOverUdpAndTcpWithDnsjava() throws Exception {
    SimpleResolver udp = resolver();
    SimpleResolver tcp = resolver();
    tcp.setTCP(true);

    Message overUdp = udp.send(query("app.cloud.example.com.", Type.A));
    Message overTcp = tcp.send(query("app.cloud.example.com.", Type.A));

    for (Message r : new Message[] {overUdp, overTcp}) {
      assertThat(r.getRcode()).isEqualTo(Rcode.NOERROR);
      assertThat(r.getHeader().getFlag(Flags.AA)).isTrue();
      assertThat(r.getSection(Section.ANSWER)).hasSize(2);
    }
    assertThat(udp.send(query("nope.cloud.example.com.", Type.A)).getRcode())
        .isEqualTo(Rcode.NXDOMAIN);
    Message ent = udp.send(query("app2.cloud.example.com.", Type.A));
    assertThat(ent.getRcode()).isEqualTo(Rcode.NOERROR);
    assertThat(ent.getSection(Section.ANSWER)).isEmpty();
    assertThat(ent.getSection(Section.AUTHORITY)).hasSize(1);
  }

  @Test
  void truncatesOverUdpSoTheResolverRetriesOverTcp() throws Exception {
    SimpleResolver noRetry = resolver();
    noRetry.setEDNS(-1);
    noRetry.setIgnoreTruncation(true);
    SimpleResolver retrying = resolver();
    retrying.setEDNS(-1);

    Message truncated = noRetry.send(query("big.cloud.example.com.", Type.A));
    Message full = retrying.send(query("big.cloud.example.com.", Type.A));

    assertThat(truncated.getHeader().getFlag(Flags.TC)).isTrue();
    assertThat(truncated.getSection(Section.ANSWER)).isEmpty();
    assertThat(full.getHeader().getFlag(Flags.TC)).isFalse();
    assertThat(full.getSection(Section.ANSWER)).hasSize(30);
  }

  @Test
  void answersPipelinedQueriesOnOneTcpConnectionInOrder() throws Exception {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), responder.port())) {
      socket.setSoTimeout(5000);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      DataInputStream in = new DataInputStream(socket.getInputStream());
      Message first = query("app.cloud.example.com.", Type.A);
      Message second = query("v6.cloud.example.com.", Type.AAAA);
      byte[] a = first.toWire();
      byte[] b = second.toWire();
      byte[] both = new byte[4 + a.length + b.length];
      both[0] = (byte) (a.length >> 8);
      both[1] = (byte) a.length;
      System.arraycopy(a, 0, both, 2, a.length);
      both[2 + a.length] = (byte) (b.length >> 8);
      both[3 + a.length] = (byte) b.length;
      System.arraycopy(b, 0, both, 4 + a.length, b.length);
      // Send byte by byte in two writes that split a frame, as a slow client might.
      out.write(both, 0, 5);
      out.flush();
      out.write(both, 5, both.length - 5);
      out.flush();

      for (Message expected : new Message[] {first, second}) {
        byte[] response = new byte[in.readUnsignedShort()];
        in.readFully(response);
        Message r = new Message(response);
        assertThat(r.getHeader().getID()).isEqualTo(expected.getHeader().getID());
        assertThat(r.getSection(Section.ANSWER)).isNotEmpty();
      }
    }
  }

  @Test
  void answersFormerrToMalformedQueriesAndDropsGarbage() throws Exception {
    byte[] valid = query("app.cloud.example.com.", Type.A).toWire();
    byte[] cut = java.util.Arrays.copyOf(valid, valid.length - 2);
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.setSoTimeout(1000);
      InetAddress loopback = InetAddress.getLoopbackAddress();
      socket.send(new DatagramPacket(new byte[] {1, 2, 3}, 3, loopback, responder.port()));
      socket.send(new DatagramPacket(cut, cut.length, loopback, responder.port()));

      DatagramPacket packet = new DatagramPacket(new byte[512], 512);
      socket.receive(packet);
      Message r = new Message(java.util.Arrays.copyOf(packet.getData(), packet.getLength()));
      assertThat(r.getRcode()).isEqualTo(Rcode.FORMERR);
      assertThat(r.getHeader().getID()).isEqualTo(new Message(valid).getHeader().getID());
      try {
        socket.receive(packet);
        throw new AssertionError("garbage was answered");
      } catch (SocketTimeoutException expected) {
        // nothing for the 3-byte datagram
      }
    }
    assertThat(responder.registry.get("responder.queries.dropped").counter().count())
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  void rateLimitingSlipsTruncatedRepliesSoClientsMoveToTcp() throws Exception {
    try (RunningResponder limited =
        new RunningResponder(GeoLocator.NONE, new ResponseRateLimiter(1, 1, 100))) {
      SimpleResolver udpOnly = new SimpleResolver(InetAddress.getLoopbackAddress());
      udpOnly.setPort(limited.port());
      udpOnly.setIgnoreTruncation(true);
      SimpleResolver retrying = new SimpleResolver(InetAddress.getLoopbackAddress());
      retrying.setPort(limited.port());

      int truncated = 0;
      for (int i = 0; i < 8; i++) {
        if (udpOnly.send(query("app.cloud.example.com.", Type.A)).getHeader().getFlag(Flags.TC)) {
          truncated++;
        }
      }
      Message viaTcp = retrying.send(query("app.cloud.example.com.", Type.A));

      assertThat(truncated).isGreaterThanOrEqualTo(3);
      assertThat(viaTcp.getSection(Section.ANSWER)).hasSize(2);
      assertThat(
              limited
                  .registry
                  .get("responder.responses.rate.limited")
                  .tag("action", "slip")
                  .counter()
                  .count())
          .isGreaterThanOrEqualTo(3);
    }
  }
}
