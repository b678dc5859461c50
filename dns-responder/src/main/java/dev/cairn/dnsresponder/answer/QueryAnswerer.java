package dev.cairn.dnsresponder.answer;

import dev.cairn.dnsresponder.zone.Node;
import dev.cairn.dnsresponder.zone.RecordKind;
import dev.cairn.dnsresponder.zone.RecordSet;
import dev.cairn.dnsresponder.zone.Target;
import dev.cairn.dnsresponder.zone.ZoneSnapshot;
import dev.cairn.dnsresponder.zone.ZoneSpec;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.ClientSubnetOption;
import org.xbill.DNS.DClass;
import org.xbill.DNS.EDNSOption;
import org.xbill.DNS.ExtendedFlags;
import org.xbill.DNS.Flags;
import org.xbill.DNS.HINFORecord;
import org.xbill.DNS.Header;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.OPTRecord;
import org.xbill.DNS.Opcode;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.TXTRecord;
import org.xbill.DNS.Type;

/**
 * Answers one query from an {@link AnswerView}: the authoritative logic, with no I/O and no clock.
 *
 * <ul>
 *   <li>Outside every zone: REFUSED. Inside a zone while unsynced: SERVFAIL (never NXDOMAIN).
 *   <li>Authoritative answers carry AA; RD is copied; RA is never set.
 *   <li>A name with data of other types: NOERROR with no answer (NODATA) and the SOA in authority;
 *       a name that does not exist: NXDOMAIN with the SOA; an empty non-terminal: NODATA. The SOA's
 *       TTL and MINIMUM are the zone's negative TTL (RFC 2308).
 *   <li>A CNAME answers every type but CNAME with itself, followed (RFC 6604) through in-zone
 *       targets, at most {@value #MAX_CHAIN} links; the rcode is that of the last name.
 *   <li>SOA and NS at the apex (NS with glue in additional); ANY gets the RFC 8482 HINFO.
 *   <li>EDNS: an OPT with our UDP size is echoed (DO copied), version above 0 gets BADVERS, the
 *       client subnet option is echoed with the scope the answer is valid for (RFC 7871).
 *   <li>The question's spelling is kept in the question and in owner names.
 *   <li>A query that parses but is not a single question of class IN: FORMERR (or REFUSED for other
 *       classes); opcodes other than QUERY: NOTIMP; zone transfers: REFUSED.
 * </ul>
 */
public final class QueryAnswerer {

  /** The longest CNAME chain followed inside our zones. */
  static final int MAX_CHAIN = 8;

  private static final int MIN_UDP = 512;

  /**
   * What {@link #answer(AnswerView, WireQuery, InetAddress, boolean, ByteBuffer)} returns when the
   * full path must answer.
   */
  public static final int NOT_HANDLED = WireAnswerer.NOT_HANDLED;

  private final TargetSelector selector;
  private final int ednsUdpSize;
  private final int maxAnswerRecords;
  private final WireAnswerer wire;

  /**
   * @param selector picks address targets (weights, geo, shuffle)
   * @param ednsUdpSize the UDP payload size we advertise and accept at most
   * @param maxAnswerRecords the most records of one set in an answer
   */
  public QueryAnswerer(TargetSelector selector, int ednsUdpSize, int maxAnswerRecords) {
    this.selector = selector;
    this.ednsUdpSize = Math.max(MIN_UDP, ednsUdpSize);
    this.maxAnswerRecords = maxAnswerRecords;
    this.wire = new WireAnswerer(selector, this.ednsUdpSize, maxAnswerRecords);
  }

  /**
   * Answers a query of the common shape straight into wire bytes (the fast path): the response
   * {@link #answer(AnswerView, Message, InetAddress)} gives for the same query, record for record,
   * without building dnsjava objects. It declines, before drawing any target, what the full path
   * must decide (see {@link WireAnswerer}); the caller then parses the query and calls the full
   * path.
   *
   * @param view what to answer from
   * @param query a query {@link WireQuery#read read} successfully
   * @param source the client's address (the transport peer)
   * @param udp whether the response goes over UDP (the client's size limit applies)
   * @param out a heap buffer of at least 512 octets; on success it holds the response from position
   *     0 to its limit
   * @return the response code, or {@link #NOT_HANDLED}
   */
  public int answer(
      AnswerView view, WireQuery query, InetAddress source, boolean udp, ByteBuffer out) {
    return wire.answer(view, query, source, udp, out);
  }

  /**
   * The empty truncated reply to a query of the common shape, into {@code out} from position 0 to
   * its limit: what {@link Reply#truncatedWire()} gives for it.
   */
  public void truncated(WireQuery query, ByteBuffer out) {
    wire.truncated(query, out);
  }

  /**
   * The response for a wire message that could not be parsed as a whole.
   *
   * @param raw the received bytes
   * @return FORMERR with the query's ID when a header can be read and it is not a response itself,
   *     otherwise {@code null}: garbage is dropped
   */
  public static byte[] formatError(byte[] raw) {
    if (raw.length < Header.LENGTH) {
      return null;
    }
    Header header;
    try {
      header = new Header(raw);
    } catch (java.io.IOException e) {
      return null;
    }
    if (header.getFlag(Flags.QR)) {
      return null;
    }
    Message response = new Message(header.getID());
    response.getHeader().setFlag(Flags.QR);
    response.getHeader().setOpcode(header.getOpcode());
    if (header.getFlag(Flags.RD)) {
      response.getHeader().setFlag(Flags.RD);
    }
    response.getHeader().setRcode(Rcode.FORMERR);
    return response.toWire();
  }

  /**
   * Answers a parsed query.
   *
   * @param view what to answer from
   * @param query the query; a message with QR set must not be passed (drop it)
   * @param source the client's address (the transport peer)
   */
  public Reply answer(AnswerView view, Message query, InetAddress source) {
    Header qh = query.getHeader();
    Message response = new Message(qh.getID());
    Header h = response.getHeader();
    h.setFlag(Flags.QR);
    h.setOpcode(qh.getOpcode());
    if (qh.getFlag(Flags.RD)) {
      h.setFlag(Flags.RD);
    }
    Record question = query.getQuestion();
    int qtype = question == null ? -1 : question.getType();
    if (qh.getOpcode() != Opcode.QUERY) {
      addQuestion(response, question);
      return reply(response, query, Rcode.NOTIMP, qtype, null, -1);
    }
    if (query.getSection(Section.QUESTION).size() != 1 || countOpt(query) > 1) {
      return reply(response, query, Rcode.FORMERR, qtype, null, -1);
    }
    response.addRecord(question, Section.QUESTION);
    OPTRecord opt = query.getOPT();
    if (opt != null && opt.getVersion() > 0) {
      return reply(response, query, Rcode.BADVERS, qtype, null, -1);
    }
    if (question.getDClass() != DClass.IN) {
      return reply(response, query, Rcode.REFUSED, qtype, null, -1);
    }
    if (qtype == Type.AXFR || qtype == Type.IXFR) {
      return reply(response, query, Rcode.REFUSED, qtype, null, -1);
    }
    Name qname = question.getName();
    String key = key(qname);
    ZoneSpec zone = view.zones().zoneOf(key);
    if (zone == null) {
      return reply(response, query, Rcode.REFUSED, qtype, null, -1);
    }
    ClientSubnetOption ecs = clientSubnet(opt);
    ZoneSnapshot snapshot = view.snapshot();
    if (snapshot == null) {
      return reply(response, query, Rcode.SERVFAIL, qtype, ecs, -1);
    }
    h.setFlag(Flags.AA);
    InetAddress client = ecs != null && ecs.getSourcePrefixLength() > 0 ? ecs.getAddress() : source;
    Resolution resolution = new Resolution(view, response, qtype, client);
    int rcode = resolution.resolve(qname, key, zone);
    return reply(response, query, rcode, qtype, ecs, resolution.scope);
  }

  /** The work of answering one question. */
  private final class Resolution {
    private final AnswerView view;
    private final Message response;
    private final int qtype;
    private final InetAddress client;
    private int scope = -1;

    Resolution(AnswerView view, Message response, int qtype, InetAddress client) {
      this.view = view;
      this.response = response;
      this.qtype = qtype;
      this.client = client;
    }

    int resolve(Name qname, String key, ZoneSpec zone) {
      Set<String> seen = new HashSet<>();
      Name owner = qname;
      for (int link = 0; ; link++) {
        Node node = view.snapshot().node(key);
        AnswerView.Apex apex = view.apex(zone.name());
        if (node == null) {
          response.addRecord(apex.soa(), Section.AUTHORITY);
          return Rcode.NXDOMAIN;
        }
        boolean atApex = key.equals(zone.name());
        if (atApex && link == 0 && qtype == Type.SOA) {
          response.addRecord(withName(apex.soa(), owner), Section.ANSWER);
          return Rcode.NOERROR;
        }
        if (atApex && link == 0 && qtype == Type.NS) {
          for (Record ns : apex.ns()) {
            response.addRecord(withName(ns, owner), Section.ANSWER);
          }
          for (Record glue : apex.glue()) {
            response.addRecord(glue, Section.ADDITIONAL);
          }
          return Rcode.NOERROR;
        }
        if (qtype == Type.ANY && link == 0) {
          response.addRecord(
              new HINFORecord(owner, DClass.IN, zone.negativeTtlSeconds(), "RFC8482", ""),
              Section.ANSWER);
          return Rcode.NOERROR;
        }
        RecordSet cname = node.get(RecordKind.CNAME);
        if (cname != null && qtype != Type.CNAME) {
          Target target = cname.targets().get(0);
          Name targetName = AnswerView.name(target.value());
          response.addRecord(
              new CNAMERecord(owner, DClass.IN, cname.ttlSeconds(), targetName), Section.ANSWER);
          ZoneSpec targetZone = view.zones().zoneOf(target.value());
          if (targetZone == null || link + 1 >= MAX_CHAIN || !seen.add(key)) {
            return Rcode.NOERROR; // out of our zones, too long, or a loop: the client goes on
          }
          owner = targetName;
          key = target.value();
          zone = targetZone;
          continue;
        }
        RecordKind kind = kindOf(qtype);
        RecordSet set = kind == null ? null : node.get(kind);
        if (set == null) {
          response.addRecord(apex.soa(), Section.AUTHORITY);
          return Rcode.NOERROR;
        }
        addSet(owner, set);
        return Rcode.NOERROR;
      }
    }

    private void addSet(Name owner, RecordSet set) {
      long ttl = set.ttlSeconds();
      switch (set.kind()) {
        case A, AAAA -> {
          TargetSelector.Selection selection = selector.select(set, client);
          if (selection.scopePrefix() >= 0) {
            scope = Math.max(scope, selection.scopePrefix());
          }
          for (Target t : selection.targets()) {
            response.addRecord(
                set.kind() == RecordKind.A
                    ? new ARecord(owner, DClass.IN, ttl, t.address())
                    : new AAAARecord(owner, DClass.IN, ttl, t.address()),
                Section.ANSWER);
          }
        }
        case CNAME ->
            response.addRecord(
                new CNAMERecord(
                    owner, DClass.IN, ttl, AnswerView.name(set.targets().get(0).value())),
                Section.ANSWER);
        case TXT -> {
          List<Target> targets = set.targets();
          for (int i = 0; i < targets.size() && i < maxAnswerRecords; i++) {
            response.addRecord(
                new TXTRecord(owner, DClass.IN, ttl, txtStrings(targets.get(i).value())),
                Section.ANSWER);
          }
        }
      }
    }
  }

  private Reply reply(
      Message response, Message query, int rcode, int qtype, ClientSubnetOption ecs, int scope) {
    OPTRecord opt = query.getOPT();
    int udpLimit = MIN_UDP;
    if (opt != null) {
      udpLimit = Math.max(MIN_UDP, Math.min(opt.getPayloadSize(), ednsUdpSize));
      List<EDNSOption> options = new ArrayList<>(1);
      if (ecs != null) {
        int source = ecs.getSourcePrefixLength();
        int echoedScope = scope < 0 ? 0 : scope;
        options.add(new ClientSubnetOption(source, echoedScope, ecs.getAddress()));
      }
      int flags = opt.getFlags() & ExtendedFlags.DO;
      response.addRecord(
          new OPTRecord(ednsUdpSize, rcode >>> 4, 0, flags, options), Section.ADDITIONAL);
    }
    response.getHeader().setRcode(rcode & 0xF);
    return new Reply(response, rcode, qtype, udpLimit);
  }

  private static void addQuestion(Message response, Record question) {
    if (question != null) {
      response.addRecord(question, Section.QUESTION);
    }
  }

  private static int countOpt(Message query) {
    int count = 0;
    for (Record r : query.getSection(Section.ADDITIONAL)) {
      if (r.getType() == Type.OPT) {
        count++;
      }
    }
    return count;
  }

  private static ClientSubnetOption clientSubnet(OPTRecord opt) {
    if (opt == null) {
      return null;
    }
    for (EDNSOption option : opt.getOptions(EDNSOption.Code.CLIENT_SUBNET)) {
      if (option instanceof ClientSubnetOption cs) {
        return cs;
      }
    }
    return null;
  }

  /**
   * The lookup key of a query name: lower case, no trailing dot. Built from the canonical
   * (lower-case) wire form in one pass. A label octet that no stored name can hold ({@code .},
   * {@code \}, space, control or non-ASCII) becomes {@code \}, so such a name matches nothing while
   * its labels, and so its zone, stay intact.
   */
  static String key(Name name) {
    byte[] wire = name.toWireCanonical();
    char[] text = new char[Math.max(0, wire.length - 2)];
    int n = 0;
    int pos = 0;
    while (true) {
      int length = wire[pos++] & 0xFF;
      if (length == 0) {
        break;
      }
      if (n > 0) {
        text[n++] = '.';
      }
      for (int end = pos + length; pos < end; pos++) {
        int b = wire[pos] & 0xFF;
        text[n++] = b <= ' ' || b >= 0x7F || b == '.' || b == '\\' ? '\\' : (char) b;
      }
    }
    return new String(text, 0, n);
  }

  static RecordKind kindOf(int qtype) {
    return switch (qtype) {
      case Type.A -> RecordKind.A;
      case Type.AAAA -> RecordKind.AAAA;
      case Type.CNAME -> RecordKind.CNAME;
      case Type.TXT -> RecordKind.TXT;
      default -> null;
    };
  }

  /** The record owned by the question's spelling of the name. */
  private static Record withName(Record record, Name owner) {
    return record.withName(owner);
  }

  /**
   * A TXT target as character-strings of at most 255 octets (UTF-8), escaped so that dnsjava reads
   * back exactly these bytes.
   */
  static List<String> txtStrings(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    List<String> strings = new ArrayList<>(bytes.length / 255 + 1);
    int start = 0;
    do {
      int end = Math.min(bytes.length, start + 255);
      ByteArrayOutputStream escaped = new ByteArrayOutputStream(end - start);
      for (int i = start; i < end; i++) {
        int b = bytes[i] & 0xFF;
        if (b < 0x20 || b >= 0x7F || b == '\\' || b == '"') {
          escaped.write('\\');
          escaped.write('0' + b / 100);
          escaped.write('0' + (b / 10) % 10);
          escaped.write('0' + b % 10);
        } else {
          escaped.write(b);
        }
      }
      strings.add(escaped.toString(StandardCharsets.US_ASCII));
      start = end;
    } while (start < bytes.length);
    return strings;
  }
}
