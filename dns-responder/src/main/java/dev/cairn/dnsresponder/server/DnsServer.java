package dev.cairn.dnsresponder.server;

import dev.cairn.commonmodel.runtime.CriticalThread;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DNS listener: one {@link DatagramChannel} served by a small pool of worker threads (each
 * receives, answers and sends), and one {@link ServerSocketChannel} served by a selector thread
 * that reads length-prefixed messages (RFC 1035 §4.2.2, several per connection), answers them in
 * order and writes the responses, with an idle timeout and a connection cap. UDP and TCP listen on
 * the same port, so truncated UDP answers can be retried over TCP.
 */
public final class DnsServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DnsServer.class);
  private static final int MAX_UDP = 65535;
  private static final int BIND_ATTEMPTS = 20;

  /**
   * Listener settings.
   *
   * @param address the address to bind
   * @param port the port for UDP and TCP; 0 picks a free one (the same for both)
   * @param udpWorkers threads receiving and answering UDP
   * @param tcpIdleTimeout how long a TCP connection may stay without a complete query
   * @param tcpMaxConnections open TCP connections at most; more are closed at once
   */
  public record Settings(
      InetAddress address,
      int port,
      int udpWorkers,
      Duration tcpIdleTimeout,
      int tcpMaxConnections) {
    public Settings {
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(tcpIdleTimeout, "tcpIdleTimeout");
      if (port < 0 || port > 65535 || udpWorkers < 1 || tcpMaxConnections < 1) {
        throw new IllegalArgumentException("invalid DNS listener settings: " + port);
      }
    }
  }

  private final Settings settings;
  private final QueryProcessor processor;
  private final List<CriticalThread> threads = new ArrayList<>();
  private final Map<String, String> stopped = new ConcurrentHashMap<>();
  private DatagramChannel udp;
  private ServerSocketChannel tcp;
  private Selector selector;
  private volatile boolean running;
  private volatile int boundPort;

  public DnsServer(Settings settings, QueryProcessor processor) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.processor = Objects.requireNonNull(processor, "processor");
  }

  /** Binds UDP and TCP and starts the threads. */
  public synchronized void start() {
    if (running) {
      return;
    }
    try {
      bind();
      selector = Selector.open();
      tcp.configureBlocking(false);
      tcp.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException e) {
      closeChannels();
      throw new UncheckedIOException(
          "cannot listen on " + settings.address() + ":" + settings.port(), e);
    }
    running = true;
    for (int i = 0; i < settings.udpWorkers(); i++) {
      threads.add(start("dns-udp-" + i, this::serveUdp));
    }
    threads.add(start("dns-tcp", this::serveTcp));
    log.atInfo()
        .addKeyValue("address", settings.address().getHostAddress())
        .addKeyValue("port", udpPort())
        .addKeyValue("udpWorkers", settings.udpWorkers())
        .log("DNS listener started");
  }

  /** The number of listener threads: the UDP workers and the TCP thread. */
  public int listeners() {
    return settings.udpWorkers() + 1;
  }

  /**
   * The listener threads that an unexpected error stopped while the server runs, by name, with the
   * error; empty while every listener serves.
   */
  public Map<String, String> stoppedListeners() {
    Map<String, String> out = new TreeMap<>(stopped);
    for (CriticalThread t : threads) {
      if (t.failure() != null) {
        out.put(t.name(), t.failure());
      }
    }
    return out;
  }

  /** The bound UDP port (the configured one, or the free one picked for port 0). */
  public int udpPort() {
    if (boundPort == 0) {
      throw new IllegalStateException("the DNS listener is not started");
    }
    return boundPort;
  }

  /** The bound TCP port: always the UDP port. */
  public int tcpPort() {
    return udpPort();
  }

  private void bind() throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < (settings.port() == 0 ? BIND_ATTEMPTS : 1); attempt++) {
      DatagramChannel u = DatagramChannel.open(protocolFamily());
      ServerSocketChannel t = ServerSocketChannel.open(protocolFamily());
      try {
        u.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
        u.bind(new InetSocketAddress(settings.address(), settings.port()));
        int port = ((InetSocketAddress) u.getLocalAddress()).getPort();
        t.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        t.bind(new InetSocketAddress(settings.address(), port), 128);
        udp = u;
        tcp = t;
        boundPort = port;
        return;
      } catch (BindException e) {
        last = e; // the free UDP port was taken for TCP: try another one
        u.close();
        t.close();
      } catch (IOException e) {
        u.close();
        t.close();
        throw e;
      }
    }
    throw last;
  }

  private ProtocolFamily protocolFamily() {
    return settings.address() instanceof Inet6Address
        ? StandardProtocolFamily.INET6
        : StandardProtocolFamily.INET;
  }

  /**
   * A listener thread. A query's RuntimeException is caught in the loop and the thread goes on; an
   * Error ends the thread, which is recorded ({@link #stoppedListeners()}: liveness goes DOWN, so
   * the process is restarted instead of staying up without answering).
   */
  private CriticalThread start(String name, Runnable body) {
    return new CriticalThread(name, body, log, "its queries are no longer answered").start();
  }

  private void serveUdp() {
    ByteBuffer in = ByteBuffer.allocate(MAX_UDP);
    QueryProcessor.Workspace workspace = processor.workspace();
    while (running) {
      SocketAddress from;
      try {
        in.clear();
        from = udp.receive(in);
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        log.atWarn().setCause(e).log("UDP receive failed");
        continue;
      }
      try {
        ByteBuffer response =
            processor.process(
                in.array(),
                0,
                in.position(),
                ((InetSocketAddress) from).getAddress(),
                true,
                workspace);
        if (response != null) {
          udp.send(response, from);
        }
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException | RuntimeException e) {
        log.atWarn().addKeyValue("client", from).setCause(e).log("UDP query failed");
      }
    }
  }

  /** One TCP client: what it has sent so far, what is still to be written back. */
  private static final class Connection {
    private ByteBuffer in = ByteBuffer.allocate(2 + 512);
    private final ArrayDeque<ByteBuffer> out = new ArrayDeque<>();
    private long lastActive;

    Connection(long now) {
      this.lastActive = now;
    }
  }

  private void serveTcp() {
    QueryProcessor.Workspace workspace = processor.workspace();
    long idleNanos = settings.tcpIdleTimeout().toNanos();
    long lastSweep = System.nanoTime();
    while (running) {
      try {
        selector.select(Math.max(1, Math.min(1000, settings.tcpIdleTimeout().toMillis())));
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          handle(key, workspace);
        }
        long now = System.nanoTime();
        if (now - lastSweep > idleNanos / 2) {
          lastSweep = now;
          for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Connection c && now - c.lastActive > idleNanos) {
              closeConnection(key);
            }
          }
        }
      } catch (ClosedChannelException | ClosedSelectorException e) {
        return;
      } catch (IOException | RuntimeException e) {
        if (running) {
          log.atWarn().setCause(e).log("TCP loop error");
        }
      }
    }
  }

  private void handle(SelectionKey key, QueryProcessor.Workspace workspace) throws IOException {
    if (!key.isValid()) {
      return;
    }
    if (key.isAcceptable()) {
      SocketChannel client = tcp.accept();
      if (client == null) {
        return;
      }
      if (selector.keys().size() - 1 >= settings.tcpMaxConnections()) {
        client.close();
        return;
      }
      client.configureBlocking(false);
      client.setOption(StandardSocketOptions.TCP_NODELAY, true);
      client.register(selector, SelectionKey.OP_READ, new Connection(System.nanoTime()));
      return;
    }
    Connection c = (Connection) key.attachment();
    SocketChannel channel = (SocketChannel) key.channel();
    try {
      if (key.isReadable()) {
        read(key, channel, c, workspace);
      }
      if (key.isValid() && key.isWritable()) {
        write(key, channel, c);
      }
    } catch (IOException e) {
      closeConnection(key);
    }
  }

  private void read(
      SelectionKey key, SocketChannel channel, Connection c, QueryProcessor.Workspace workspace)
      throws IOException {
    int n = channel.read(c.in);
    if (n < 0) {
      closeConnection(key);
      return;
    }
    c.lastActive = System.nanoTime();
    c.in.flip();
    while (c.in.remaining() >= 2) {
      int length = Short.toUnsignedInt(c.in.getShort(c.in.position()));
      if (length == 0) {
        closeConnection(key);
        return;
      }
      if (c.in.remaining() < 2 + length) {
        if (c.in.capacity() < 2 + length) {
          ByteBuffer bigger = ByteBuffer.allocate(2 + length);
          bigger.put(c.in);
          bigger.flip();
          c.in = bigger;
        }
        break;
      }
      c.in.getShort();
      InetAddress peer = ((InetSocketAddress) channel.getRemoteAddress()).getAddress();
      ByteBuffer response =
          processor.process(
              c.in.array(), c.in.arrayOffset() + c.in.position(), length, peer, false, workspace);
      c.in.position(c.in.position() + length);
      if (response != null) {
        ByteBuffer framed = ByteBuffer.allocate(2 + response.remaining());
        framed.putShort((short) response.remaining()).put(response).flip();
        c.out.add(framed);
      }
    }
    c.in.compact();
    if (!c.out.isEmpty()) {
      write(key, channel, c);
    }
  }

  private void write(SelectionKey key, SocketChannel channel, Connection c) throws IOException {
    while (!c.out.isEmpty()) {
      ByteBuffer head = c.out.peek();
      channel.write(head);
      if (head.hasRemaining()) {
        key.interestOps(SelectionKey.OP_WRITE); // stop reading until the client takes its answers
        return;
      }
      c.out.poll();
    }
    c.lastActive = System.nanoTime();
    key.interestOps(SelectionKey.OP_READ);
  }

  private static void closeConnection(SelectionKey key) {
    key.cancel();
    try {
      key.channel().close();
    } catch (IOException e) {
      log.atDebug().setCause(e).log("closing a TCP connection failed");
    }
  }

  /** Stops the threads and closes every socket. */
  @Override
  public synchronized void close() {
    if (!running && udp == null) {
      return;
    }
    running = false;
    if (selector != null) {
      for (SelectionKey key : selector.keys()) {
        try {
          key.channel().close();
        } catch (IOException e) {
          log.atDebug().setCause(e).log("closing a channel failed");
        }
      }
      try {
        selector.close();
      } catch (IOException e) {
        log.atDebug().setCause(e).log("closing the selector failed");
      }
    }
    closeChannels();
    for (CriticalThread critical : threads) {
      Thread thread = critical.thread();
      try {
        thread.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (CriticalThread t : threads) {
      if (t.failure() != null) {
        stopped.put(t.name(), t.failure()); // kept for stoppedListeners() after close
      }
    }
    threads.clear();
  }

  private void closeChannels() {
    for (Closeable c : new Closeable[] {udp, tcp}) {
      if (c != null) {
        try {
          c.close();
        } catch (IOException e) {
          log.atDebug().setCause(e).log("closing a listener failed");
        }
      }
    }
  }
}
