package dev.cairn.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The network between two simulated clusters: a UDP relay in front of a cluster's dns-responder
 * that the other clusters' probers use as that cluster's DNS server. It can be cut: while cut, it
 * drops every datagram without an answer or an ICMP error, as a black-holed WAN link or a silent
 * peer does (the case that is slow in k8gb). Users and the live view query the responders directly,
 * not through a link.
 *
 * <p>Each client socket gets its own upstream socket, so answers find their way back without
 * rewriting message IDs. The relay carries UDP only: the probers' {@code localtargets-*} answers
 * are far below the EDNS0 size, so they never retry over TCP.
 */
final class DnsLink implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DnsLink.class);
  private static final int MAX_UPSTREAM_SOCKETS = 256;

  private final String name;
  private final DatagramChannel listener;
  private final Selector selector;
  private final Map<SocketAddress, DatagramChannel> upstreams = new HashMap<>();
  private final ByteBuffer buffer = ByteBuffer.allocateDirect(65535);
  private final AtomicLong relayed = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final Thread thread;
  private volatile InetSocketAddress target;
  private volatile boolean cut;
  private volatile boolean running = true;

  private DnsLink(String name, DatagramChannel listener, Selector selector) {
    this.name = name;
    this.listener = listener;
    this.selector = selector;
    this.thread = new Thread(this::run, "dns-link-" + name);
    this.thread.setDaemon(true);
  }

  /**
   * Opens a link listening on {@code 127.0.0.1:port} (0: a free port). It drops everything until
   * {@link #connect} names the server behind it.
   */
  static DnsLink open(String name, int port) {
    try {
      DatagramChannel listener = DatagramChannel.open(StandardProtocolFamily.INET);
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      listener.configureBlocking(false);
      Selector selector = Selector.open();
      listener.register(selector, SelectionKey.OP_READ);
      DnsLink link = new DnsLink(name, listener, selector);
      link.thread.start();
      return link;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the DNS link " + name + " on port " + port, e);
    }
  }

  /** Points the link at the server behind it (the responder, once its port is known). */
  void connect(InetSocketAddress server) {
    this.target = server;
  }

  /** The address the other clusters use for this cluster's DNS. */
  InetSocketAddress address() {
    try {
      return (InetSocketAddress) listener.getLocalAddress();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Cuts the link (black hole: no answer, no error) or restores it. */
  void setCut(boolean cut) {
    this.cut = cut;
    log.atInfo().addKeyValue("link", name).log(cut ? "link cut (black hole)" : "link restored");
  }

  boolean isCut() {
    return cut;
  }

  /** Datagrams relayed in either direction. */
  long relayed() {
    return relayed.get();
  }

  /** Datagrams dropped because the link was cut or had no server yet. */
  long dropped() {
    return dropped.get();
  }

  private void run() {
    while (running) {
      try {
        selector.select(500);
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (!key.isValid()) {
            continue;
          }
          if (key.channel() == listener) {
            fromClients();
          } else {
            fromServer((DatagramChannel) key.channel(), (SocketAddress) key.attachment());
          }
        }
      } catch (IOException | RuntimeException e) {
        if (running) {
          log.atWarn().addKeyValue("link", name).setCause(e).log("DNS link error; going on");
        }
      }
    }
  }

  private void fromClients() throws IOException {
    SocketAddress client;
    while ((client = receive(listener)) != null) {
      InetSocketAddress server = target;
      if (cut || server == null) {
        dropped.incrementAndGet();
        continue;
      }
      DatagramChannel upstream = upstreams.get(client);
      if (upstream == null) {
        if (upstreams.size() >= MAX_UPSTREAM_SOCKETS) {
          closeUpstreams();
        }
        upstream = DatagramChannel.open(StandardProtocolFamily.INET);
        upstream.configureBlocking(false);
        upstream.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        upstream.register(selector, SelectionKey.OP_READ, client);
        upstreams.put(client, upstream);
      }
      upstream.send(buffer, server);
      relayed.incrementAndGet();
    }
  }

  private void fromServer(DatagramChannel upstream, SocketAddress client) throws IOException {
    while (receive(upstream) != null) {
      if (cut) {
        dropped.incrementAndGet();
        continue;
      }
      listener.send(buffer, client);
      relayed.incrementAndGet();
    }
  }

  private SocketAddress receive(DatagramChannel channel) throws IOException {
    buffer.clear();
    SocketAddress from = channel.receive(buffer);
    buffer.flip();
    return from;
  }

  private void closeUpstreams() {
    for (DatagramChannel c : upstreams.values()) {
      try {
        c.close();
      } catch (IOException e) {
        log.atDebug().setCause(e).log("closing an upstream socket failed");
      }
    }
    upstreams.clear();
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    closeUpstreams();
    try {
      selector.close();
      listener.close();
    } catch (IOException e) {
      log.atDebug().setCause(e).log("closing the DNS link failed");
    }
  }
}
