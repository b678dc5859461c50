package dev.cairn.healthprober.dns;

import dev.cairn.commonmodel.runtime.CriticalThread;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.RecordType;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TextParseException;

/**
 * A DNS client that owns its transport: many queries in flight over a few long-lived UDP sockets.
 * Replies are read in place by {@link WireReply}; dnsjava only encodes queries (once per question)
 * and reads the rare reply of an unusual shape. dnsjava's own {@code SimpleResolver.sendAsync}
 * opens a socket per query and reaches about 5% of dnsperf on Java 17 (performance.md §2.2).
 *
 * <ul>
 *   <li>A small pool of unconnected {@link DatagramChannel}s, each bound to a random source port,
 *       so that ports vary between queries; one reader thread serves them through a {@link
 *       Selector}.
 *   <li>IDs come from {@link SecureRandom}; each socket has a table of its queries in flight by ID,
 *       and an ID is not reused on a socket while its query is in flight. A reply is accepted only
 *       when the socket it arrived on, its ID, its source address and port, and its question (name,
 *       type, class IN) match a query in flight, and it is a well-formed response to a standard
 *       query. Packets that match the source and ID but cannot be parsed or carry another question
 *       are counted and ignored, so a stray or forged packet cannot end a query; if nothing better
 *       arrives, the query ends as {@code MALFORMED} or {@code MISMATCHED} instead of {@code
 *       TIMEOUT}.
 *   <li>Timeouts: the queries in flight with one timeout length form a list in send order, hence in
 *       deadline order, swept from its head by the reader thread. O(1) per query to add, to take
 *       out when answered and to expire; no timer task per query, nothing outlives its query (so
 *       the garbage collector never copies the bookkeeping of answered queries), and the reader
 *       sleeps while nothing is in flight.
 *   <li>A truncated reply is retried over TCP on a small pool, with the same timeout.
 * </ul>
 *
 * Completion callbacks run on the reader thread (the TCP pool after a truncated reply, the sending
 * thread when sending fails): keep them short.
 */
public final class DnsClient implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DnsClient.class);
  private static final int LOWEST_PORT = 1024;
  private static final int BIND_ATTEMPTS = 32;
  private static final int MAX_UDP = 65_535;
  private static final int IDS = 65_536;
  private static final int ID_ATTEMPTS = 64;

  /**
   * Tuning of the client.
   *
   * @param sockets the number of UDP sockets (source ports) in the pool
   * @param ednsPayloadSize the EDNS0 UDP payload size advertised; 0 sends no OPT record
   * @param tcpThreads threads for TCP retries of truncated replies
   */
  public record Settings(int sockets, int ednsPayloadSize, int tcpThreads) {
    public Settings {
      if (sockets < 1 || sockets > 64) {
        throw new IllegalArgumentException("sockets must be 1..64, got " + sockets);
      }
      if (ednsPayloadSize != 0 && (ednsPayloadSize < 512 || ednsPayloadSize > 4096)) {
        throw new IllegalArgumentException(
            "EDNS payload size must be 0 (off) or 512..4096, got " + ednsPayloadSize);
      }
      if (tcpThreads < 1) {
        throw new IllegalArgumentException("tcpThreads must be at least 1, got " + tcpThreads);
      }
    }
  }

  private final Settings settings;
  private final QueryIds ids;
  private final Selector selector;
  private final DatagramChannel[] channels;
  private final int[] ports;

  /** Per socket, the query in flight with each ID. */
  private final List<AtomicReferenceArray<Pending>> slots;

  private final AtomicInteger inFlight = new AtomicInteger();

  /** One list per timeout length; replaced (copy on write) when a new length appears. */
  private volatile Deadlines[] deadlines = new Deadlines[0];

  /** A send buffer per sending thread: the query is copied in and its ID set, no allocation. */
  private final ThreadLocal<ByteBuffer> sendBuffers =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(512));

  private final ExecutorService tcp;
  private final CriticalThread reader;
  private final AtomicInteger nextChannel = new AtomicInteger();
  private volatile boolean running = true;

  private final LongAdder sent = new LongAdder();
  private final LongAdder received = new LongAdder();
  private final LongAdder answered = new LongAdder();
  private final LongAdder malformed = new LongAdder();
  private final LongAdder mismatched = new LongAdder();
  private final LongAdder unmatched = new LongAdder();
  private final LongAdder timeouts = new LongAdder();
  private final LongAdder truncated = new LongAdder();
  private final LongAdder sendErrors = new LongAdder();

  /** Opens the sockets and starts the reader thread. */
  public DnsClient(Settings settings) throws IOException {
    this(settings, new SecureRandom());
  }

  DnsClient(Settings settings, SecureRandom random) throws IOException {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.ids = new QueryIds(random);
    this.selector = Selector.open();
    this.channels = new DatagramChannel[settings.sockets()];
    this.ports = new int[settings.sockets()];
    List<AtomicReferenceArray<Pending>> tables = new ArrayList<>();
    for (int i = 0; i < settings.sockets(); i++) {
      tables.add(new AtomicReferenceArray<>(IDS));
    }
    this.slots = List.copyOf(tables);
    try {
      for (int i = 0; i < channels.length; i++) {
        DatagramChannel ch = DatagramChannel.open();
        channels[i] = ch;
        ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
        ch.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
        ports[i] = bindRandomPort(ch);
        ch.configureBlocking(false);
        ch.register(selector, SelectionKey.OP_READ, i);
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly();
      throw e;
    }
    AtomicInteger tcpThreadNumber = new AtomicInteger();
    this.tcp =
        new ThreadPoolExecutor(
            settings.tcpThreads(),
            settings.tcpThreads(),
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "cairn-dns-tcp-" + tcpThreadNumber.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    ((ThreadPoolExecutor) tcp).allowCoreThreadTimeOut(true);
    this.reader =
        new CriticalThread(
                "cairn-dns-reader",
                this::readLoop,
                log,
                "no DNS answer is read any more; liveness is DOWN")
            .start();
  }

  private int bindRandomPort(DatagramChannel ch) throws IOException {
    for (int attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
      int port = LOWEST_PORT + ids.nextInt(65_536 - LOWEST_PORT);
      try {
        ch.bind(new InetSocketAddress(port));
        return port;
      } catch (BindException e) {
        // taken; draw another
      }
    }
    ch.bind(new InetSocketAddress(0));
    return ((InetSocketAddress) ch.getLocalAddress()).getPort();
  }

  /**
   * Encodes a query once, for many sends.
   *
   * @param name the question name (trailing dot optional)
   * @param type the question type
   * @param recursionDesired the RD flag: off for authoritative peers, on for resolvers
   * @throws IllegalArgumentException when the name is not a valid DNS name
   */
  public EncodedQuery encode(String name, RecordType type, boolean recursionDesired) {
    Name n;
    try {
      n = Name.fromString(name.endsWith(".") ? name : name + ".");
    } catch (TextParseException e) {
      throw new IllegalArgumentException("not a DNS name: '" + name + "'", e);
    }
    Message m = Message.newQuery(Record.newRecord(n, type.code(), DClass.IN));
    if (recursionDesired) {
      m.getHeader().setFlag(Flags.RD);
    } else {
      m.getHeader().unsetFlag(Flags.RD);
    }
    if (settings.ednsPayloadSize() > 0) {
      m.addRecord(new OPTRecord(settings.ednsPayloadSize(), 0, 0), Section.ADDITIONAL);
    }
    return new EncodedQuery(
        n, n.toString(true).toLowerCase(java.util.Locale.ROOT), type, m.toWire());
  }

  /**
   * Sends a query. The future always completes, never exceptionally: with a reply or a failure.
   *
   * @param query the encoded query
   * @param server where to send it
   * @param timeout how long to wait for the reply
   */
  CompletableFuture<Exchange> send(EncodedQuery query, ServerAddress server, Duration timeout) {
    CompletableFuture<Exchange> future = new CompletableFuture<>();
    send(query, server, timeout.toNanos(), future::complete);
    return future;
  }

  /**
   * Sends a query; {@code done} is told the end exactly once, with a reply or a failure.
   *
   * @param query the encoded query
   * @param server where to send it
   * @param timeoutNanos how long to wait for the reply
   * @param done told the end of the exchange
   */
  void send(EncodedQuery query, ServerAddress server, long timeoutNanos, Consumer<Exchange> done) {
    long timeout = Math.max(1, timeoutNanos);
    if (!running) {
      call(done, Exchange.failed(server, Exchange.Failure.TRANSPORT, "client closed", 0));
      return;
    }
    int channel = Math.floorMod(nextChannel.getAndIncrement(), channels.length);
    long start = System.nanoTime();
    Pending pending = new Pending(query, server, channel, start, deadlines(timeout), done);
    AtomicReferenceArray<Pending> table = slots.get(channel);
    inFlight.incrementAndGet();
    int id = -1;
    for (int attempt = 0; attempt < ID_ATTEMPTS && id < 0; attempt++) {
      pending.id = ids.next(); // written before the table publishes the query
      if (table.compareAndSet(pending.id, null, pending)) {
        id = pending.id;
      }
    }
    if (id < 0) {
      inFlight.decrementAndGet();
      sendErrors.increment();
      call(
          done,
          Exchange.failed(
              server,
              Exchange.Failure.TRANSPORT,
              "no free query ID: too many queries in flight",
              0));
      return;
    }
    if (pending.deadlines.add(pending)) {
      selector.wakeup(); // the reader may be asleep with no deadline to wake for
    }
    try {
      ByteBuffer out = sendBuffer(query.wire().length);
      out.put(query.wire());
      out.put(0, (byte) (id >>> 8));
      out.put(1, (byte) id);
      out.flip();
      int written = channels[channel].send(out, server.socketAddress());
      if (written == 0) {
        fail(pending, "the local send buffer is full");
      } else {
        sent.increment();
      }
    } catch (IOException | RuntimeException e) {
      fail(pending, "send to " + server + " failed: " + e.getMessage());
    }
  }

  private ByteBuffer sendBuffer(int length) {
    ByteBuffer b = sendBuffers.get();
    if (b.capacity() < length) {
      b = ByteBuffer.allocateDirect(length);
      sendBuffers.set(b);
    }
    b.clear();
    return b;
  }

  /** The list of one timeout length (few lengths are in use: a linear search). */
  private Deadlines deadlines(long timeout) {
    for (Deadlines d : deadlines) {
      if (d.timeoutNanos == timeout) {
        return d;
      }
    }
    synchronized (this) {
      for (Deadlines d : deadlines) {
        if (d.timeoutNanos == timeout) {
          return d;
        }
      }
      Deadlines[] more = Arrays.copyOf(deadlines, deadlines.length + 1);
      more[more.length - 1] = new Deadlines(timeout);
      deadlines = more;
      return more[more.length - 1];
    }
  }

  /** Takes a query out of its socket's table: true for the one caller that did. */
  private boolean remove(Pending p) {
    if (slots.get(p.channel).compareAndSet(p.id, p, null)) {
      inFlight.decrementAndGet();
      p.deadlines.unlink(p);
      return true;
    }
    return false;
  }

  private static void call(Consumer<Exchange> done, Exchange exchange) {
    try {
      done.accept(exchange);
    } catch (RuntimeException e) {
      log.atError().setCause(e).log("a DNS completion callback failed; continuing");
    }
  }

  private void fail(Pending pending, String detail) {
    sendErrors.increment();
    if (remove(pending)) {
      call(
          pending.done,
          Exchange.failed(
              pending.server,
              Exchange.Failure.TRANSPORT,
              detail,
              System.nanoTime() - pending.start));
    }
  }

  private void readLoop() {
    ByteBuffer buffer = ByteBuffer.allocateDirect(MAX_UDP);
    while (running) {
      try {
        long wait = millisToNextDeadline(System.nanoTime());
        if (wait < 0) {
          selector.selectNow(k -> drain(k, buffer));
        } else {
          selector.select(k -> drain(k, buffer), wait);
        }
        expire(System.nanoTime());
      } catch (ClosedChannelException | java.nio.channels.ClosedSelectorException e) {
        return;
      } catch (IOException | RuntimeException e) {
        if (running) {
          log.atError().setCause(e).log("DNS reader loop failed; continuing");
        }
      }
    }
  }

  /** -1: a deadline is due now; 0: nothing in flight (sleep until woken); else milliseconds. */
  private long millisToNextDeadline(long now) {
    long best = Long.MAX_VALUE;
    for (Deadlines d : deadlines) {
      long first = d.first();
      if (first != NONE) {
        best = Math.min(best, first - now);
      }
    }
    if (best == Long.MAX_VALUE) {
      return 0;
    }
    if (best <= 0) {
      return -1;
    }
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(best + 999_999));
  }

  private void drain(SelectionKey key, ByteBuffer buffer) {
    int channel = (Integer) key.attachment();
    DatagramChannel ch = (DatagramChannel) key.channel();
    for (int i = 0; i < 1024; i++) {
      buffer.clear();
      InetSocketAddress source;
      try {
        source = (InetSocketAddress) ch.receive(buffer);
      } catch (IOException e) {
        // e.g. an ICMP error reported on the socket; the query it belongs to will time out
        return;
      }
      if (source == null) {
        return;
      }
      buffer.flip();
      received.increment();
      try {
        handle(channel, source, buffer);
      } catch (RuntimeException e) {
        malformed.increment();
        log.atWarn()
            .addKeyValue("source", source)
            .setCause(e)
            .log("failed to handle a DNS packet; ignored");
      }
    }
  }

  private void handle(int channel, InetSocketAddress source, ByteBuffer packet) {
    int length = packet.remaining();
    if (length < 2) {
      malformed.increment();
      return;
    }
    int id = ((packet.get(0) & 0xff) << 8) | (packet.get(1) & 0xff);
    Pending pending = slots.get(channel).get(id);
    if (pending == null || !pending.server.socketAddress().equals(source)) {
      unmatched.increment(); // late (after a timeout), or not ours
      return;
    }
    byte[] bytes = new byte[length];
    packet.get(bytes);
    WireReply reply;
    try {
      reply = WireReply.read(bytes);
    } catch (WireReply.MalformedException e) {
      malformed.increment();
      pending.flag = Exchange.Failure.MALFORMED;
      return;
    }
    if (!reply.answers(pending.query)) {
      mismatched.increment();
      if (pending.flag == null) {
        pending.flag = Exchange.Failure.MISMATCHED;
      }
      return;
    }
    if (!remove(pending)) {
      return;
    }
    if (reply.truncated()) {
      truncated.increment();
      try {
        tcp.execute(() -> retryOverTcp(pending));
      } catch (RejectedExecutionException e) {
        call(
            pending.done,
            Exchange.failed(
                pending.server,
                Exchange.Failure.TRANSPORT,
                "truncated, and the TCP retry could not start: client closed",
                System.nanoTime() - pending.start));
      }
      return;
    }
    answered.increment();
    call(
        pending.done,
        Exchange.answered(pending.server, reply, System.nanoTime() - pending.start, false));
  }

  private void expire(long now) {
    for (Deadlines d : deadlines) {
      Pending p;
      while ((p = d.expired(now)) != null) {
        if (remove(p)) {
          Exchange.Failure why = p.flag == null ? Exchange.Failure.TIMEOUT : p.flag;
          if (why == Exchange.Failure.TIMEOUT) {
            timeouts.increment();
          }
          call(p.done, Exchange.failed(p.server, why, describe(why, p), now - p.start));
        }
      }
    }
  }

  private static String describe(Exchange.Failure why, Pending p) {
    return switch (why) {
      case TIMEOUT ->
          "no reply from "
              + p.server
              + " within "
              + Duration.ofNanos(p.deadlines.timeoutNanos).toMillis()
              + " ms";
      case MALFORMED -> "only malformed replies from " + p.server;
      case MISMATCHED -> "only replies for another question from " + p.server;
      case TRANSPORT -> "transport failure";
    };
  }

  private void retryOverTcp(Pending p) {
    int timeoutMillis = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(p.deadlines.timeoutNanos));
    int id = ids.next();
    byte[] wire = p.query.withId(id);
    try (Socket socket = new Socket()) {
      socket.connect(p.server.socketAddress(), timeoutMillis);
      socket.setSoTimeout(timeoutMillis);
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      out.writeShort(wire.length);
      out.write(wire);
      out.flush();
      DataInputStream in = new DataInputStream(socket.getInputStream());
      int length = in.readUnsignedShort();
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      WireReply reply;
      try {
        reply = WireReply.read(bytes);
      } catch (WireReply.MalformedException e) {
        malformed.increment();
        complete(p, Exchange.Failure.MALFORMED, "malformed TCP reply from " + p.server);
        return;
      }
      if (reply.id() != id || !reply.answers(p.query)) {
        mismatched.increment();
        complete(p, Exchange.Failure.MISMATCHED, "TCP reply for another query from " + p.server);
        return;
      }
      if (reply.truncated()) {
        complete(p, Exchange.Failure.TRANSPORT, "reply truncated over TCP by " + p.server);
        return;
      }
      answered.increment();
      call(p.done, Exchange.answered(p.server, reply, System.nanoTime() - p.start, true));
    } catch (SocketTimeoutException e) {
      timeouts.increment();
      complete(p, Exchange.Failure.TIMEOUT, "no TCP reply from " + p.server + " in time");
    } catch (IOException | RuntimeException e) {
      complete(p, Exchange.Failure.TRANSPORT, "TCP retry to " + p.server + ": " + e.getMessage());
    }
  }

  private static void complete(Pending p, Exchange.Failure why, String detail) {
    call(p.done, Exchange.failed(p.server, why, detail, System.nanoTime() - p.start));
  }

  /** True while the reader thread runs. */
  public boolean alive() {
    return running && reader.isAlive();
  }

  /** True when the reader thread ended while the client is open (an unexpected error). */
  public boolean readerStopped() {
    return running && reader.failure() != null;
  }

  /** The source ports of the sockets, for diagnostics. */
  public List<Integer> sourcePorts() {
    List<Integer> out = new ArrayList<>();
    for (int p : ports) {
      out.add(p);
    }
    return out;
  }

  /** Queries in flight. */
  public int inFlight() {
    return inFlight.get();
  }

  /** Queries sent over UDP. */
  public long sent() {
    return sent.sum();
  }

  /** UDP packets received. */
  public long received() {
    return received.sum();
  }

  /** Queries that got a matching reply (UDP or TCP). */
  public long answered() {
    return answered.sum();
  }

  /** Packets that could not be parsed. */
  public long malformed() {
    return malformed.sum();
  }

  /** Replies with a query's ID but another question. */
  public long mismatched() {
    return mismatched.sum();
  }

  /** Packets matching no query in flight (late or foreign). */
  public long unmatched() {
    return unmatched.sum();
  }

  /** Queries that timed out. */
  public long timeouts() {
    return timeouts.sum();
  }

  /** Truncated replies retried over TCP. */
  public long truncated() {
    return truncated.sum();
  }

  /** Sends that failed locally. */
  public long sendErrors() {
    return sendErrors.sum();
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      reader.thread().join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    tcp.shutdownNow();
    closeQuietly();
    for (AtomicReferenceArray<Pending> table : slots) {
      for (int id = 0; id < IDS; id++) {
        Pending p = table.get(id);
        if (p != null && remove(p)) {
          complete(p, Exchange.Failure.TRANSPORT, "client closed");
        }
      }
    }
  }

  private void closeQuietly() {
    for (DatagramChannel ch : channels) {
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException e) {
          log.atDebug().setCause(e).log("closing a DNS socket failed");
        }
      }
    }
    try {
      selector.close();
    } catch (IOException e) {
      log.atDebug().setCause(e).log("closing the DNS selector failed");
    }
  }

  /** No deadline: the list is empty. */
  private static final long NONE = Long.MIN_VALUE;

  /**
   * The queries in flight with one timeout length, in send order (so in deadline order, give or
   * take the microseconds between concurrent senders): an intrusive doubly linked list through
   * {@link Pending}. A query is taken out when it ends, by a reply, a failure or its deadline.
   */
  private static final class Deadlines {
    final long timeoutNanos;
    private Pending head;
    private Pending tail;

    Deadlines(long timeoutNanos) {
      this.timeoutNanos = timeoutNanos;
    }

    /** Appends a query; true when it is the first in the list (the reader may need waking). */
    synchronized boolean add(Pending p) {
      p.previous = tail;
      p.next = null;
      if (tail == null) {
        head = p;
      } else {
        tail.next = p;
      }
      tail = p;
      p.linked = true;
      return head == p;
    }

    synchronized void unlink(Pending p) {
      if (!p.linked) {
        return;
      }
      if (p.previous == null) {
        head = p.next;
      } else {
        p.previous.next = p.next;
      }
      if (p.next == null) {
        tail = p.previous;
      } else {
        p.next.previous = p.previous;
      }
      p.previous = null;
      p.next = null;
      p.linked = false;
    }

    /** The first query whose deadline passed, taken out of the list; null when none. */
    synchronized Pending expired(long now) {
      Pending p = head;
      if (p == null || p.deadline - now > 0) {
        return null;
      }
      unlink(p);
      return p;
    }

    /** The earliest deadline, {@link #NONE} when nothing is in flight. */
    synchronized long first() {
      return head == null ? NONE : head.deadline;
    }
  }

  private static final class Pending {
    final EncodedQuery query;
    final ServerAddress server;
    final int channel;
    final long start;
    final long deadline;
    final Deadlines deadlines;
    final Consumer<Exchange> done;
    int id; // written before the query is published in its socket's table
    volatile Exchange.Failure flag;
    // guarded by deadlines
    Pending previous;
    Pending next;
    boolean linked;

    Pending(
        EncodedQuery query,
        ServerAddress server,
        int channel,
        long start,
        Deadlines deadlines,
        Consumer<Exchange> done) {
      this.query = query;
      this.server = server;
      this.channel = channel;
      this.start = start;
      this.deadline = start + deadlines.timeoutNanos;
      this.deadlines = deadlines;
      this.done = done;
    }
  }
}
