package dev.cairn.healthprober.dns;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.RecordType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

class DnsClientIT {

  private static final Duration TIMEOUT = Duration.ofMillis(300);

  private TestDnsServer server;
  private DnsClient client;
  private DnsLookup lookup;

  @BeforeEach
  void start() throws Exception {
    server = TestDnsServer.start();
    client = new DnsClient(new DnsClient.Settings(4, 1232, 2));
    lookup = new DnsLookup(client, 64);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  private Exchange send(String name, RecordType type) {
    return client.send(client.encode(name, type, false), server.address(), TIMEOUT).join();
  }

  private DnsLookup.Answer ask(String name, RecordType type) {
    return lookup
        .query(
            client.encode(name, type, false),
            List.of(server.address()),
            0,
            1,
            TIMEOUT,
            "test",
            null)
        .join();
  }

  @Test
  void matchesTheReplyToItsQuery() throws Exception {
    server.answer("a.test", "192.0.2.1", "192.0.2.2");

    Exchange e = send("a.test", RecordType.A);

    assertThat(e.failure()).isNull();
    assertThat(e.reply().message().getSection(Section.ANSWER))
        .extracting(r -> ((ARecord) r).getAddress().getHostAddress())
        .containsExactly("192.0.2.1", "192.0.2.2");
    assertThat(e.server()).isEqualTo(server.address());
    assertThat(client.answered()).isEqualTo(1);
  }

  @Test
  void sendsWithoutRecursionDesiredWhenAskedTo() {
    EncodedQuery q = client.encode("a.test", RecordType.A, false);
    EncodedQuery rd = client.encode("a.test", RecordType.A, true);

    assertThat(q.wire()[2] & 0x01).isZero();
    assertThat(rd.wire()[2] & 0x01).isEqualTo(1);
  }

  @Test
  void classifiesEveryStatus() {
    server.answer("ok.test", "192.0.2.1", "2001:db8::1");
    server.nodata("empty.test");
    server.mode("fail.test", TestDnsServer.Mode.SERVFAIL);
    server.mode("refused.test", TestDnsServer.Mode.REFUSED);
    server.mode("dropped.test", TestDnsServer.Mode.DROP);

    assertThat(ask("ok.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.OK);
    assertThat(ask("ok.test", RecordType.AAAA).result().addresses())
        .extracting(ip -> ip.text())
        .containsExactly("2001:db8::1");
    assertThat(ask("missing.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.NXDOMAIN);
    assertThat(ask("missing.test", RecordType.A).result().ttlSeconds()).isEqualTo(15L);
    assertThat(ask("empty.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.NODATA);
    assertThat(ask("fail.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.SERVFAIL);
    assertThat(ask("refused.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.REFUSED);
    assertThat(ask("dropped.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.TIMEOUT);
  }

  @Test
  void ignoresAReplyWithAnotherIdAndTimesOut() {
    server.answer("a.test", "192.0.2.1").mode("a.test", TestDnsServer.Mode.WRONG_ID);

    Exchange e = send("a.test", RecordType.A);

    assertThat(e.failure()).isEqualTo(Exchange.Failure.TIMEOUT);
    assertThat(client.unmatched()).isEqualTo(1);
  }

  @Test
  void ignoresAReplyForAnotherQuestionAndReportsIt() {
    server.answer("a.test", "192.0.2.1").mode("a.test", TestDnsServer.Mode.WRONG_QUESTION);

    Exchange e = send("a.test", RecordType.A);

    assertThat(e.failure()).isEqualTo(Exchange.Failure.MISMATCHED);
    assertThat(client.mismatched()).isEqualTo(1);
    assertThat(ask("a.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.ERROR);
  }

  @Test
  void countsGarbageAndReportsItAsAnError() {
    server.mode("a.test", TestDnsServer.Mode.GARBAGE);

    Exchange e = send("a.test", RecordType.A);

    assertThat(e.failure()).isEqualTo(Exchange.Failure.MALFORMED);
    assertThat(client.malformed()).isEqualTo(1);
    assertThat(ask("a.test", RecordType.A).result().status()).isEqualTo(ProbeStatus.ERROR);
  }

  @Test
  void retriesATruncatedReplyOverTcp() throws Exception {
    server
        .answer("big.test", "192.0.2.1", "192.0.2.2")
        .mode("big.test", TestDnsServer.Mode.TRUNCATE);

    Exchange e = send("big.test", RecordType.A);

    assertThat(e.failure()).isNull();
    assertThat(e.tcp()).isTrue();
    assertThat(e.reply().message().getSection(Section.ANSWER)).hasSize(2);
    assertThat(server.tcpQueries()).isEqualTo(1);
    assertThat(client.truncated()).isEqualTo(1);
  }

  @Test
  void aLateReplyAfterTheTimeoutIsNotAccepted() {
    server.answer("slow.test", "192.0.2.1").delay("slow.test", Duration.ofMillis(600));

    Exchange e = send("slow.test", RecordType.A);

    assertThat(e.failure()).isEqualTo(Exchange.Failure.TIMEOUT);
    org.awaitility.Awaitility.await().until(() -> client.unmatched() == 1);
    assertThat(client.answered()).isZero();
  }

  @Test
  void keepsManyQueriesInFlightOverFewSockets() throws Exception {
    int n = 2000;
    for (int i = 0; i < n; i++) {
      server.answer("h" + i + ".test", "192.0.2." + (i % 250 + 1));
    }
    // 100 in flight at a time: the in-JVM server's socket buffer is the kernel default
    Semaphore window = new Semaphore(100);
    List<CompletableFuture<Exchange>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      window.acquire();
      CompletableFuture<Exchange> f =
          client.send(
              client.encode("h" + i + ".test", RecordType.A, false),
              server.address(),
              Duration.ofSeconds(5));
      f.whenComplete((e, x) -> window.release());
      futures.add(f);
    }
    for (int i = 0; i < n; i++) {
      Exchange e = futures.get(i).join();
      assertThat(e.failure()).as("query %d", i).isNull();
      ARecord a = (ARecord) e.reply().message().getSection(Section.ANSWER).get(0);
      assertThat(a.getAddress().getHostAddress()).isEqualTo("192.0.2." + (i % 250 + 1));
    }
    assertThat(client.sent()).isEqualTo(n);
    assertThat(client.inFlight()).isZero();
  }

  @Test
  void usesSeveralRandomSourcePorts() {
    Set<Integer> ports = new HashSet<>(client.sourcePorts());

    assertThat(ports).hasSize(4).allMatch(p -> p >= 1024);
  }

  @Test
  void talksToAnIpv6Server() throws Exception {
    try (TestDnsServer v6 = TestDnsServer.start("::1", "test")) {
      v6.answer("a.test", "2001:db8::7");
      Exchange e =
          client
              .send(client.encode("a.test", RecordType.AAAA, false), v6.address(), TIMEOUT)
              .join();

      assertThat(v6.address().toString()).startsWith("[::1]:");
      assertThat(e.failure()).isNull();
      assertThat(e.reply().message().getSection(Section.ANSWER)).hasSize(1);
    }
  }

  @Test
  void retriesOnTheNextServerWhenOneIsDead() throws Exception {
    try (TestDnsServer dead = TestDnsServer.start()) {
      dead.blackHole(true);
      server.answer("a.test", "192.0.2.1");

      DnsLookup.Answer answer =
          lookup
              .query(
                  client.encode("a.test", RecordType.A, false),
                  List.of(dead.address(), server.address()),
                  0,
                  2,
                  TIMEOUT,
                  "test",
                  null)
              .join();

      assertThat(answer.result().status()).isEqualTo(ProbeStatus.OK);
      assertThat(answer.server()).isEqualTo(server.address());
      assertThat(dead.totalQueries()).isEqualTo(1);
    }
  }

  @Test
  void endsEveryQueryExactlyOnceWhenAnswersAndTimeoutsInterleave() {
    int n = 200;
    for (int i = 0; i < n; i += 2) {
      server.answer("h" + i + ".test", "192.0.2." + (i % 250 + 1));
      server.mode("h" + (i + 1) + ".test", TestDnsServer.Mode.DROP);
    }
    AtomicIntegerArray ends = new AtomicIntegerArray(n);
    List<CompletableFuture<Exchange>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int index = i;
      CompletableFuture<Exchange> f = new CompletableFuture<>();
      client.send(
          client.encode("h" + i + ".test", RecordType.A, false),
          server.address(),
          TIMEOUT.toNanos(),
          e -> {
            ends.incrementAndGet(index);
            f.complete(e);
          });
      futures.add(f);
    }

    for (int i = 0; i < n; i++) {
      Exchange e = futures.get(i).join();
      assertThat(e.failure())
          .as("query %d", i)
          .isEqualTo(i % 2 == 0 ? null : Exchange.Failure.TIMEOUT);
    }
    assertThat(client.timeouts()).isEqualTo(n / 2);
    assertThat(client.answered()).isEqualTo(n / 2);
    assertThat(client.inFlight()).isZero();
    for (int i = 0; i < n; i++) {
      assertThat(ends.get(i)).as("ends of query %d", i).isEqualTo(1);
    }
  }

  /** Every ID drawn is 0x1212: IDs become predictable, so the other checks can be tested. */
  static final class FixedIds extends SecureRandom {
    private static final long serialVersionUID = 1L;

    @Override
    public void nextBytes(byte[] bytes) {
      Arrays.fill(bytes, (byte) 0x12);
    }

    @Override
    public int nextInt(int bound) {
      return ThreadLocalRandom.current().nextInt(bound); // source ports stay random
    }
  }

  @Test
  void acceptsAReplyOnlyFromTheAddressAndPortAsked() throws Exception {
    try (DnsClient fixed = new DnsClient(new DnsClient.Settings(1, 1232, 1), new FixedIds());
        DatagramChannel spoofer = DatagramChannel.open()) {
      server.answer("a.test", "192.0.2.1").delay("a.test", Duration.ofMillis(300));
      spoofer.bind(new InetSocketAddress("127.0.0.1", 0));
      Message forged = new Message(0x1212);
      forged.getHeader().setFlag(Flags.QR);
      forged.addRecord(
          Record.newRecord(Name.fromString("a.test."), Type.A, DClass.IN), Section.QUESTION);
      forged.addRecord(
          new ARecord(
              Name.fromString("a.test."), DClass.IN, 30, InetAddress.getByName("203.0.113.66")),
          Section.ANSWER);

      CompletableFuture<Exchange> f =
          fixed.send(
              fixed.encode("a.test", RecordType.A, false), server.address(), Duration.ofSeconds(2));
      // right socket, ID and question, wrong source port
      int port = fixed.sourcePorts().get(0);
      spoofer.send(ByteBuffer.wrap(forged.toWire()), new InetSocketAddress("127.0.0.1", port));
      Exchange e = f.join();

      assertThat(e.failure()).isNull();
      assertThat(e.reply().id()).isEqualTo(0x1212);
      assertThat(e.reply().message().getSection(Section.ANSWER))
          .extracting(r -> ((ARecord) r).getAddress().getHostAddress())
          .containsExactly("192.0.2.1");
      assertThat(fixed.unmatched()).isEqualTo(1);
    }
  }

  @Test
  void neverReusesAnIdOnASocketWhileItsQueryIsInFlight() throws Exception {
    try (DnsClient fixed = new DnsClient(new DnsClient.Settings(1, 1232, 1), new FixedIds())) {
      server.mode("dropped.test", TestDnsServer.Mode.DROP).answer("a.test", "192.0.2.1");
      CompletableFuture<Exchange> first =
          fixed.send(fixed.encode("dropped.test", RecordType.A, false), server.address(), TIMEOUT);

      Exchange second =
          fixed.send(fixed.encode("a.test", RecordType.A, false), server.address(), TIMEOUT).join();

      assertThat(second.failure()).isEqualTo(Exchange.Failure.TRANSPORT);
      assertThat(second.detail()).contains("no free query ID");
      assertThat(first.join().failure()).isEqualTo(Exchange.Failure.TIMEOUT);
      Exchange third =
          fixed.send(fixed.encode("a.test", RecordType.A, false), server.address(), TIMEOUT).join();
      assertThat(third.failure()).isNull();
      assertThat(fixed.inFlight()).isZero();
    }
  }

  @Test
  void failsAtOnceWhenSendingIsImpossible() {
    ServerAddress nowhere = ServerAddress.require("t", "192.0.2.1:0".replace(":0", ":9"), 53);
    client.close();

    Exchange e = client.send(client.encode("a.test", RecordType.A, false), nowhere, TIMEOUT).join();

    assertThat(e.failure()).isEqualTo(Exchange.Failure.TRANSPORT);
  }

  /**
   * A completion that throws a RuntimeException is logged and the reader goes on; an Error ends the
   * reader, which the client then reports (the prober's liveness goes DOWN on it).
   */
  @Test
  void reportsAReaderThatAnErrorStopped() throws Exception {
    server.answer("a.test", "192.0.2.1");
    java.util.concurrent.CountDownLatch called = new java.util.concurrent.CountDownLatch(2);

    client.send(
        client.encode("a.test", RecordType.A, false),
        server.address(),
        TIMEOUT.toNanos(),
        e -> {
          called.countDown();
          throw new IllegalStateException("a failing callback for the test");
        });
    assertThat(send("a.test", RecordType.A).failure()).isNull();
    assertThat(client.readerStopped()).isFalse();

    client.send(
        client.encode("a.test", RecordType.A, false),
        server.address(),
        TIMEOUT.toNanos(),
        e -> {
          called.countDown();
          throw new AssertionError("an error for the test");
        });
    assertThat(called.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(client::readerStopped);
    assertThat(client.alive()).isFalse();

    client.close();
    assertThat(client.readerStopped()).as("a closed client reports nothing").isFalse();
  }
}
