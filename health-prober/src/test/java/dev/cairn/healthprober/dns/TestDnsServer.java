package dev.cairn.healthprober.dns;

import dev.cairn.healthprober.peer.ServerAddress;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;
import org.xbill.DNS.Type;

/**
 * A small authoritative DNS server for tests, on a UDP socket and a TCP listener of the same port.
 * Per name it can answer, answer empty (NODATA), say NXDOMAIN, SERVFAIL or REFUSED, drop the query,
 * answer late, set TC (full answer only over TCP), send garbage with the right ID, answer with a
 * wrong ID, or answer another question. It counts the queries it receives.
 */
public final class TestDnsServer implements AutoCloseable {

  /** What the server does with a query for a name. */
  public enum Mode {
    ANSWER,
    NXDOMAIN,
    SERVFAIL,
    REFUSED,
    DROP,
    TRUNCATE,
    GARBAGE,
    WRONG_ID,
    WRONG_QUESTION
  }

  private final DatagramChannel udp;
  private final ServerSocket tcp;
  private final ServerAddress address;
  private final Map<String, List<Record>> records = new ConcurrentHashMap<>();
  private final Map<String, Mode> modes = new ConcurrentHashMap<>();
  private final Map<String, Duration> delays = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private final AtomicInteger total = new AtomicInteger();
  private final AtomicInteger tcpQueries = new AtomicInteger();
  private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
  private final Thread udpThread;
  private final Thread tcpThread;
  private final Name zone;
  private volatile Mode defaultMode = Mode.NXDOMAIN;
  private volatile boolean blackHole;
  private volatile boolean running = true;

  private TestDnsServer(String bind, String zone) throws IOException {
    this.zone = Name.fromString(zone.endsWith(".") ? zone : zone + ".");
    InetAddress ip = InetAddress.getByName(bind);
    DatagramChannel u = null;
    ServerSocket t = null;
    for (int attempt = 0; attempt < 20 && t == null; attempt++) {
      u =
          DatagramChannel.open(
              ip instanceof java.net.Inet6Address
                  ? java.net.StandardProtocolFamily.INET6
                  : java.net.StandardProtocolFamily.INET);
      u.bind(new InetSocketAddress(ip, 0));
      int port = ((InetSocketAddress) u.getLocalAddress()).getPort();
      try {
        t = new ServerSocket(port, 50, ip);
      } catch (IOException e) {
        u.close();
        u = null;
      }
    }
    if (u == null || t == null) {
      throw new IOException("no free port for UDP and TCP on " + bind);
    }
    this.udp = u;
    this.tcp = t;
    this.address =
        ServerAddress.require("test", bind, ((InetSocketAddress) u.getLocalAddress()).getPort());
    this.udpThread = new Thread(this::serveUdp, "test-dns-udp-" + address);
    this.tcpThread = new Thread(this::serveTcp, "test-dns-tcp-" + address);
    udpThread.setDaemon(true);
    tcpThread.setDaemon(true);
    udpThread.start();
    tcpThread.start();
  }

  /** A server on 127.0.0.1 for the zone {@code test}. */
  public static TestDnsServer start() throws IOException {
    return new TestDnsServer("127.0.0.1", "test");
  }

  /** A server on the given loopback address for a zone. */
  public static TestDnsServer start(String bind, String zone) throws IOException {
    return new TestDnsServer(bind, zone);
  }

  /** Where it listens. */
  public ServerAddress address() {
    return address;
  }

  /** Answers A/AAAA for the name with these addresses (TTL 30). */
  public TestDnsServer answer(String name, String... ips) {
    List<Record> rs = new ArrayList<>();
    for (String ip : ips) {
      try {
        InetAddress a = InetAddress.getByName(ip);
        rs.add(
            a instanceof java.net.Inet4Address
                ? new ARecord(name(name), DClass.IN, 30, a)
                : new AAAARecord(name(name), DClass.IN, 30, a));
      } catch (IOException e) {
        throw new IllegalArgumentException(ip, e);
      }
    }
    return records(name, rs);
  }

  /** Serves exactly these records for the name (any type asked; the server filters by type). */
  public TestDnsServer records(String name, List<Record> rs) {
    records.put(key(name), List.copyOf(rs));
    modes.put(key(name), Mode.ANSWER);
    return this;
  }

  /** The name exists without address records: NODATA. */
  public TestDnsServer nodata(String name) {
    return records(name, List.of());
  }

  /** A CNAME from name to target (the server follows it inside its own data). */
  public TestDnsServer cname(String name, String target) {
    return records(name, List.of(new CNAMERecord(name(name), DClass.IN, 30, name(target))));
  }

  /** NS records for a zone (in the answer section). */
  public TestDnsServer ns(String zoneName, String... servers) {
    List<Record> rs = new ArrayList<>();
    for (String s : servers) {
      rs.add(new NSRecord(name(zoneName), DClass.IN, 30, name(s)));
    }
    return records(zoneName, rs);
  }

  /** The mode for one name. */
  public TestDnsServer mode(String name, Mode mode) {
    modes.put(key(name), mode);
    return this;
  }

  /** The mode of names without one (NXDOMAIN unless set). */
  public TestDnsServer defaultMode(Mode mode) {
    this.defaultMode = mode;
    return this;
  }

  /** Answers this name late. */
  public TestDnsServer delay(String name, Duration delay) {
    delays.put(key(name), delay);
    return this;
  }

  /** Drops every query while on. */
  public TestDnsServer blackHole(boolean on) {
    this.blackHole = on;
    return this;
  }

  /** Queries received for a name (UDP and TCP). */
  public int queries(String name) {
    AtomicInteger c = counts.get(key(name));
    return c == null ? 0 : c.get();
  }

  /** Queries received in all. */
  public int totalQueries() {
    return total.get();
  }

  /** Queries received over TCP. */
  public int tcpQueries() {
    return tcpQueries.get();
  }

  private static Name name(String n) {
    try {
      return Name.fromString(n.endsWith(".") ? n : n + ".");
    } catch (IOException e) {
      throw new IllegalArgumentException(n, e);
    }
  }

  private static String key(String n) {
    String s = n.toLowerCase(Locale.ROOT);
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }

  private void serveUdp() {
    ByteBuffer buffer = ByteBuffer.allocate(65_535);
    while (running) {
      try {
        buffer.clear();
        SocketAddress client = udp.receive(buffer);
        buffer.flip();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        Message query = new Message(bytes);
        String name = key(query.getQuestion().getName().toString());
        total.incrementAndGet();
        counts.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        if (blackHole) {
          continue;
        }
        byte[] reply = reply(query, bytes, false);
        if (reply == null) {
          continue;
        }
        Duration delay = delays.get(name);
        if (delay == null) {
          udp.send(ByteBuffer.wrap(reply), client);
        } else {
          later.schedule(
              () -> {
                try {
                  udp.send(ByteBuffer.wrap(reply), client);
                } catch (IOException e) {
                  // closed
                }
              },
              delay.toMillis(),
              TimeUnit.MILLISECONDS);
        }
      } catch (IOException e) {
        if (!running) {
          return;
        }
      }
    }
  }

  private void serveTcp() {
    while (running) {
      try (Socket s = tcp.accept()) {
        s.setSoTimeout(5_000);
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] bytes = new byte[in.readUnsignedShort()];
        in.readFully(bytes);
        Message query = new Message(bytes);
        String name = key(query.getQuestion().getName().toString());
        total.incrementAndGet();
        tcpQueries.incrementAndGet();
        counts.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
        byte[] reply = blackHole ? null : reply(query, bytes, true);
        if (reply != null) {
          DataOutputStream out = new DataOutputStream(s.getOutputStream());
          out.writeShort(reply.length);
          out.write(reply);
          out.flush();
        }
      } catch (IOException e) {
        if (!running) {
          return;
        }
      }
    }
  }

  private byte[] reply(Message query, byte[] raw, boolean overTcp) throws IOException {
    Record question = query.getQuestion();
    String name = key(question.getName().toString());
    Mode mode = modes.getOrDefault(name, defaultMode);
    Message reply = new Message(query.getHeader().getID());
    reply.getHeader().setFlag(Flags.QR);
    reply.getHeader().setFlag(Flags.AA);
    reply.addRecord(question, Section.QUESTION);
    switch (mode) {
      case DROP:
        return null;
      case NXDOMAIN:
        reply.getHeader().setRcode(Rcode.NXDOMAIN);
        reply.addRecord(soa(), Section.AUTHORITY);
        return reply.toWire();
      case SERVFAIL:
        reply.getHeader().setRcode(Rcode.SERVFAIL);
        return reply.toWire();
      case REFUSED:
        reply.getHeader().setRcode(Rcode.REFUSED);
        return reply.toWire();
      case GARBAGE:
        byte[] garbage = new byte[] {raw[0], raw[1], (byte) 0x81, 0x00, 0x00, 0x01, 0x77, 0x01};
        return garbage;
      case WRONG_ID:
        reply.getHeader().setID((query.getHeader().getID() + 1) & 0xffff);
        break;
      case WRONG_QUESTION:
        Message other = new Message(query.getHeader().getID());
        other.getHeader().setFlag(Flags.QR);
        other.addRecord(
            Record.newRecord(name("other." + zone), question.getType(), DClass.IN),
            Section.QUESTION);
        return other.toWire();
      case TRUNCATE:
        if (!overTcp) {
          reply.getHeader().setFlag(Flags.TC);
          return reply.toWire();
        }
        break;
      case ANSWER:
      default:
        break;
    }
    addAnswers(reply, name, question.getType(), 0);
    if (reply.getSection(Section.ANSWER).isEmpty()) {
      reply.addRecord(soa(), Section.AUTHORITY);
    }
    return reply.toWire();
  }

  private void addAnswers(Message reply, String name, int type, int depth) {
    List<Record> rs = records.getOrDefault(name, List.of());
    for (Record r : rs) {
      if (r.getType() == type || (r.getType() == Type.CNAME && type != Type.CNAME)) {
        reply.addRecord(r, Section.ANSWER);
        if (r instanceof CNAMERecord c && depth < 8) {
          addAnswers(reply, key(c.getTarget().toString()), type, depth + 1);
        }
      } else if (r.getType() != type && r.getType() != Type.CNAME && type == Type.ANY) {
        reply.addRecord(r, Section.ANSWER);
      }
    }
  }

  private SOARecord soa() {
    return new SOARecord(
        zone,
        DClass.IN,
        60,
        name("ns1." + zone),
        name("hostmaster." + zone),
        1,
        3600,
        600,
        86400,
        15);
  }

  @Override
  public void close() {
    running = false;
    later.shutdownNow();
    try {
      udp.close();
      tcp.close();
    } catch (IOException e) {
      // closing
    }
  }
}
