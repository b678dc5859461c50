package dev.cairn.dnsresponder.answer;

import dev.cairn.dnsresponder.zone.RecordKind;
import dev.cairn.dnsresponder.zone.RecordSet;
import dev.cairn.dnsresponder.zone.Target;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Type;

/**
 * The fast path of {@link QueryAnswerer}: answers a {@link WireQuery} by copying the records the
 * view's {@link WireIndex} holds in wire form, patching only the header, the question (copied with
 * the client's spelling) and the owner pointer of the SOA. It gives the response the full path
 * gives, record for record: the same rcode and flags (AA, RD copied), the same answers drawn the
 * same way (the selector is called exactly as the full path calls it), the SOA of the zone in
 * negative answers and the OPT echo (our UDP size, DO copied).
 *
 * <p>It declines ({@link #NOT_HANDLED}) before drawing anything when the full path must decide: SOA
 * or NS at an apex, ANY, a name with a CNAME (chains are followed there), a set that could not be
 * encoded, or a response that might not fit the UDP limit (the full path truncates whole RRsets).
 * Names compress only against the question, so a response may be a few octets longer than the full
 * path's, never different in content.
 */
final class WireAnswerer {

  /** Returned when the full path must answer. */
  static final int NOT_HANDLED = -1;

  private static final int HEADER = WireQuery.HEADER;
  private static final int OPT_LENGTH = 11;
  private static final int MIN_UDP = 512;
  private static final int QR = 0x8000;
  private static final int AA = 0x0400;
  private static final int TC = 0x0200;
  private static final int RD = 0x0100;
  private static final int DO = 0x8000;

  private final TargetSelector selector;
  private final int ednsUdpSize;
  private final int maxAnswerRecords;

  /**
   * @param selector picks address targets, the same instance as the full path's
   * @param ednsUdpSize the UDP payload size we advertise and accept at most (at least 512)
   * @param maxAnswerRecords the most records of one set in an answer
   */
  WireAnswerer(TargetSelector selector, int ednsUdpSize, int maxAnswerRecords) {
    this.selector = selector;
    this.ednsUdpSize = ednsUdpSize;
    this.maxAnswerRecords = maxAnswerRecords;
  }

  /**
   * Answers a query into {@code out}.
   *
   * @param out a heap buffer; on success it holds the response from position 0 to its limit
   * @return the response code, or {@link #NOT_HANDLED} with {@code out} in an unspecified state
   */
  int answer(AnswerView view, WireQuery query, InetAddress source, boolean udp, ByteBuffer out) {
    byte[] o = out.array();
    int base = out.arrayOffset();
    int room = Math.min(out.capacity(), udp ? udpLimit(query) : Reply.MAX_TCP);
    int end = room - (query.edns() ? OPT_LENGTH : 0); // where the records must stop
    int pos = base + HEADER + query.questionLength();
    if (pos - base > end) {
      return NOT_HANDLED;
    }
    System.arraycopy(
        query.message(), query.questionStart(), o, base + HEADER, query.questionLength());
    int qtype = query.qtype();
    int rcode = Rcode.NOERROR;
    int answers = 0;
    int authority = 0;
    boolean authoritative = false;
    WireIndex index = view.wire();
    WireIndex.Zone zone = null;
    if (qtype == Type.AXFR || qtype == Type.IXFR) {
      rcode = Rcode.REFUSED;
    } else if ((zone = index.zoneOf(query)) == null) {
      rcode = Rcode.REFUSED;
    } else if (view.snapshot() == null) {
      rcode = Rcode.SERVFAIL;
    } else {
      authoritative = true;
      WireIndex.Entry entry = index.find(query);
      WireIndex.EncodedSet set = null;
      if (entry == null) {
        rcode = Rcode.NXDOMAIN;
      } else {
        boolean atApex = query.nameLength() == zone.apexLength();
        if (qtype == Type.ANY
            || (atApex && (qtype == Type.SOA || qtype == Type.NS))
            || (qtype != Type.CNAME && entry.get(RecordKind.CNAME) != null)) {
          return NOT_HANDLED;
        }
        RecordKind kind = QueryAnswerer.kindOf(qtype);
        set = kind == null ? null : entry.get(kind);
      }
      if (set == null) {
        byte[] soa = zone.soa();
        if (soa == null || pos - base + soa.length > end) {
          return NOT_HANDLED;
        }
        System.arraycopy(soa, 0, o, pos, soa.length);
        if (!zone.isRoot()) {
          int apex = 0xC000 | (HEADER + query.nameLength() - zone.apexLength());
          o[pos] = (byte) (apex >>> 8);
          o[pos + 1] = (byte) apex;
        }
        pos += soa.length;
        authority = 1;
      } else {
        if (set.records() == null) {
          return NOT_HANDLED;
        }
        long written = writeSet(set, source, query, o, pos, base + end);
        if (written < 0) {
          return NOT_HANDLED;
        }
        pos = (int) written;
        answers = (int) (written >>> 32);
      }
    }
    if (query.edns()) {
      pos = writeOpt(query, o, pos);
    }
    int flags = QR | (authoritative ? AA : 0) | (query.recursionDesired() ? RD : 0) | (rcode & 0xF);
    writeHeader(o, base, query.id(), flags, answers, authority, query.edns() ? 1 : 0);
    out.position(0).limit(pos - base);
    return rcode;
  }

  /**
   * An empty truncated reply to the query (header with TC, the question, the OPT echo): what a
   * rate-limited client gets on a slip, the same as {@link Reply#truncatedWire()}.
   */
  void truncated(WireQuery query, ByteBuffer out) {
    byte[] o = out.array();
    int base = out.arrayOffset();
    System.arraycopy(
        query.message(), query.questionStart(), o, base + HEADER, query.questionLength());
    int pos = base + HEADER + query.questionLength();
    if (query.edns()) {
      pos = writeOpt(query, o, pos);
    }
    int flags = QR | TC | (query.recursionDesired() ? RD : 0);
    writeHeader(o, base, query.id(), flags, 0, 0, query.edns() ? 1 : 0);
    out.position(0).limit(pos - base);
  }

  /**
   * Copies the records an answer carries from a set, drawing them exactly as the full path does.
   *
   * @return the number of records in the high 32 bits and the new position in the low ones, or -1
   *     (decided before drawing) when they might not fit before {@code limit}
   */
  private long writeSet(
      WireIndex.EncodedSet encoded,
      InetAddress client,
      WireQuery query,
      byte[] o,
      int pos,
      int limit) {
    RecordSet set = encoded.set();
    byte[] records = encoded.records();
    int[] starts = encoded.starts();
    int n = encoded.size();
    int count;
    if (set.kind().isAddress()) {
      if (pos + (long) selector.maxAnswer(set) * encoded.longest() > limit) {
        return -1;
      }
      if (selector.isPlain(set, client)) {
        int[] order = query.order(n);
        count = selector.plainOrder(n, order);
        for (int k = 0; k < count; k++) {
          int i = order[k];
          int length = starts[i + 1] - starts[i];
          System.arraycopy(records, starts[i], o, pos, length);
          pos += length;
        }
      } else {
        List<Target> targets = set.targets();
        List<Target> chosen = selector.select(set, client).targets();
        count = chosen.size();
        for (Target target : chosen) {
          int i = indexOf(targets, target);
          int length = starts[i + 1] - starts[i];
          System.arraycopy(records, starts[i], o, pos, length);
          pos += length;
        }
      }
    } else {
      // TXT: the first records in set order; CNAME: its one record. Nothing is drawn.
      count = Math.min(n, maxAnswerRecords);
      int length = starts[count];
      if (pos + length > limit) {
        return -1;
      }
      System.arraycopy(records, 0, o, pos, length);
      pos += length;
    }
    return ((long) count << 32) | pos;
  }

  private static int indexOf(List<Target> targets, Target chosen) {
    for (int i = 0; i < targets.size(); i++) {
      if (targets.get(i) == chosen) {
        return i;
      }
    }
    throw new IllegalStateException("the selector returned a target outside the set");
  }

  private int writeOpt(WireQuery query, byte[] o, int pos) {
    o[pos] = 0; // root owner
    o[pos + 1] = 0;
    o[pos + 2] = (byte) Type.OPT;
    o[pos + 3] = (byte) (ednsUdpSize >>> 8);
    o[pos + 4] = (byte) ednsUdpSize;
    o[pos + 5] = 0; // extended rcode: every rcode answered here fits the header
    o[pos + 6] = 0; // version
    int flags = query.ednsFlags() & DO;
    o[pos + 7] = (byte) (flags >>> 8);
    o[pos + 8] = (byte) flags;
    o[pos + 9] = 0; // no options
    o[pos + 10] = 0;
    return pos + OPT_LENGTH;
  }

  private static void writeHeader(
      byte[] o, int base, int id, int flags, int answers, int authority, int additional) {
    o[base] = (byte) (id >>> 8);
    o[base + 1] = (byte) id;
    o[base + 2] = (byte) (flags >>> 8);
    o[base + 3] = (byte) flags;
    o[base + 4] = 0;
    o[base + 5] = 1;
    o[base + 6] = (byte) (answers >>> 8);
    o[base + 7] = (byte) answers;
    o[base + 8] = (byte) (authority >>> 8);
    o[base + 9] = (byte) authority;
    o[base + 10] = (byte) (additional >>> 8);
    o[base + 11] = (byte) additional;
  }

  private int udpLimit(WireQuery query) {
    if (!query.edns()) {
      return MIN_UDP;
    }
    return Math.max(MIN_UDP, Math.min(query.payloadSize(), ednsUdpSize));
  }
}
