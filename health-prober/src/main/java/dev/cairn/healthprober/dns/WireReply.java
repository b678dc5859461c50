package dev.cairn.healthprober.dns;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.healthprober.probe.DnsReply;
import dev.cairn.healthprober.probe.QueryResult;
import dev.cairn.healthprober.probe.RecordType;
import dev.cairn.healthprober.probe.ReplyClassifier;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.xbill.DNS.Message;

/**
 * A DNS reply read in place from the bytes received, without building dnsjava objects: the reader
 * of the prober's hot path (reading replies with dnsjava was the largest share of the prober's CPU,
 * see the profile in docs/benchmarks.md).
 *
 * <p>{@link #read} checks the whole message as strictly as dnsjava's {@link Message} parser does: a
 * header, then every question and resource record with names that stay inside the packet (labels of
 * at most 63 bytes, at most 255 bytes in all, compression pointers only to earlier bytes, so no
 * loops), record data inside the packet, and the exact data length of A (4), AAAA (16), NS and
 * CNAME (one name) and SOA (two names and 20 bytes) records. A record of any other type, or an OPT
 * record carrying options, is handed to dnsjava as well, so a packet is never accepted that dnsjava
 * would reject. As in dnsjava, a truncated reply (TC) may end early: only its header and question
 * are needed, for the retry over TCP.
 *
 * <p>{@link #addressResult} classifies the common reply to an A or AAAA question (addresses of the
 * question name, or an empty answer, or an error code) directly, with the same result the pure
 * {@link ReplyClassifier} gives; any other shape (a CNAME in the answer, records dnsjava read) is
 * left to the classifier through {@link #message()}.
 */
final class WireReply {

  /** A packet that is not a well-formed DNS message; no stack trace, packets are data. */
  static final class MalformedException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedException(String message) {
      super(message, null, false, false);
    }
  }

  private static final int HEADER = 12;
  private static final int MAX_NAME = 255;
  private static final int MIN_RECORD = 11; // root owner, type, class, TTL, data length
  private static final int TYPE_A = 1;
  private static final int TYPE_NS = 2;
  private static final int TYPE_CNAME = 5;
  private static final int TYPE_SOA = 6;
  private static final int TYPE_AAAA = 28;
  private static final int TYPE_OPT = 41;
  private static final int CLASS_IN = 1;
  private static final int OPCODE_QUERY = 0;
  private static final int SHORT_ANSWER = 16;

  // per resource record: owner offset, type, TTL (unsigned 32 bit), data offset, data length
  private static final int STRIDE = 5;
  private static final int OWNER = 0;
  private static final int TYPE = 1;
  private static final int TTL = 2;
  private static final int DATA = 3;
  private static final int LENGTH = 4;

  private final byte[] data;
  private final int questions;
  private final int[] records;
  private final int answers;
  private final int authority;
  private final int additional;
  private Message message;

  private WireReply(
      byte[] data,
      int questions,
      int[] records,
      int answers,
      int authority,
      int additional,
      Message message) {
    this.data = data;
    this.questions = questions;
    this.records = records;
    this.answers = answers;
    this.authority = authority;
    this.additional = additional;
    this.message = message;
  }

  /**
   * Reads and checks a packet.
   *
   * @param data the packet, exactly (kept, not copied)
   * @throws MalformedException when it is not a well-formed DNS message
   */
  static WireReply read(byte[] data) throws MalformedException {
    if (data.length < HEADER) {
      throw new MalformedException("shorter than a DNS header");
    }
    boolean truncated = (data[2] & 0x02) != 0;
    int qd = u16(data, 4);
    int[] counts = {u16(data, 6), u16(data, 8), u16(data, 10)};
    int[] parsed = new int[3];
    int questions = 0;
    int[] records = new int[0];
    boolean foreign = false;
    int pos = HEADER;
    try {
      for (int i = 0; i < qd; i++) {
        pos = skipName(data, pos, data.length);
        require(data, pos + 4, data.length);
        pos += 4;
        questions++;
      }
      long total = (long) counts[0] + counts[1] + counts[2];
      if (total * MIN_RECORD > data.length - pos) {
        throw new MalformedException("more records than the packet can hold");
      }
      records = new int[(int) total * STRIDE];
      int r = 0;
      for (int section = 0; section < 3; section++) {
        for (int i = 0; i < counts[section]; i++, r += STRIDE) {
          records[r + OWNER] = pos;
          pos = skipName(data, pos, data.length);
          require(data, pos + 10, data.length);
          int type = u16(data, pos);
          int length = u16(data, pos + 8);
          int start = pos + 10;
          int end = start + length;
          require(data, end, data.length);
          records[r + TYPE] = type;
          records[r + TTL] = (int) u32(data, pos + 4);
          records[r + DATA] = start;
          records[r + LENGTH] = length;
          if (!checkData(data, type, start, end)) {
            foreign = true;
          }
          pos = end;
          parsed[section]++;
        }
      }
    } catch (MalformedException e) {
      if (!truncated) {
        throw e;
      }
      // a truncated reply may end anywhere after its header: keep what was read
    }
    Message message = null;
    if (foreign && !truncated) {
      message = parse(data); // records this reader does not check: dnsjava decides
    }
    return new WireReply(data, questions, records, parsed[0], parsed[1], parsed[2], message);
  }

  /** True when the data of a checked type is exactly right; false for types not checked here. */
  private static boolean checkData(byte[] data, int type, int start, int end)
      throws MalformedException {
    int length = end - start;
    switch (type) {
      case TYPE_A -> {
        if (length != 4) {
          throw new MalformedException("A record of " + length + " bytes");
        }
        return true;
      }
      case TYPE_AAAA -> {
        if (length != 16) {
          throw new MalformedException("AAAA record of " + length + " bytes");
        }
        return true;
      }
      case TYPE_NS, TYPE_CNAME -> {
        if (skipName(data, start, end) != end) {
          throw new MalformedException("record data longer than its name");
        }
        return true;
      }
      case TYPE_SOA -> {
        int p = skipName(data, start, end);
        p = skipName(data, p, end);
        if (p + 20 != end) {
          throw new MalformedException("SOA record of the wrong length");
        }
        return true;
      }
      case TYPE_OPT -> {
        return length == 0; // options: dnsjava reads them
      }
      default -> {
        return false;
      }
    }
  }

  private static Message parse(byte[] data) throws MalformedException {
    try {
      return new Message(data);
    } catch (IOException | RuntimeException e) {
      throw new MalformedException("unreadable: " + e.getMessage());
    }
  }

  /**
   * Skips a name starting at {@code pos}, checking it and every name it points to.
   *
   * @param limit the end of the region the name's own bytes must lie in
   * @return the offset after the name's own bytes
   */
  private static int skipName(byte[] data, int pos, int limit) throws MalformedException {
    int end = -1; // after the name's own bytes, once a pointer was followed
    int length = 0;
    int p = pos;
    int region = limit;
    while (true) {
      require(data, p + 1, region);
      int len = data[p] & 0xff;
      switch (len & 0xc0) {
        case 0x00 -> {
          length += len + 1;
          if (length > MAX_NAME) {
            throw new MalformedException("name longer than 255 bytes");
          }
          if (len == 0) {
            return end < 0 ? p + 1 : end;
          }
          require(data, p + 1 + len, region);
          p += 1 + len;
        }
        case 0xc0 -> {
          require(data, p + 2, region);
          int target = ((len & 0x3f) << 8) | (data[p + 1] & 0xff);
          if (target >= p) {
            throw new MalformedException("compression pointer not backwards");
          }
          if (end < 0) {
            end = p + 2;
          }
          p = target;
          region = data.length; // a name pointed to may lie anywhere before
        }
        default -> throw new MalformedException("unknown label type");
      }
    }
  }

  private static void require(byte[] data, int end, int limit) throws MalformedException {
    if (end > limit || end > data.length) {
      throw new MalformedException("ends early");
    }
  }

  private static int u16(byte[] b, int i) {
    return ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
  }

  private static long u32(byte[] b, int i) {
    return ((long) u16(b, i) << 16) | u16(b, i + 2);
  }

  /** The message ID. */
  int id() {
    return u16(data, 0);
  }

  /** The TC flag: the reply did not fit. */
  boolean truncated() {
    return (data[2] & 0x02) != 0;
  }

  /**
   * True when this is a response to a standard query with exactly the question asked: QR set,
   * opcode QUERY, one question, whose name (compared case-insensitively), type and class IN are the
   * query's.
   */
  boolean answers(EncodedQuery query) {
    if ((data[2] & 0x80) == 0
        || ((data[2] >> 3) & 0x0f) != OPCODE_QUERY
        || u16(data, 4) != 1
        || questions != 1) {
      return false;
    }
    int end = nameEnd(HEADER);
    return u16(data, end) == query.type().code()
        && u16(data, end + 2) == CLASS_IN
        && sameName(HEADER, query.wire(), HEADER);
  }

  /** The offset after the own bytes of a checked name. */
  private int nameEnd(int pos) {
    int p = pos;
    while (true) {
      int len = data[p] & 0xff;
      if ((len & 0xc0) == 0xc0) {
        return p + 2;
      }
      if (len == 0) {
        return p + 1;
      }
      p += 1 + len;
    }
  }

  /**
   * Compares a checked name of this packet with an uncompressed name of another buffer, ASCII
   * case-insensitively (RFC 4343), as dnsjava's {@code Name.equals} does.
   */
  private boolean sameName(int pos, byte[] other, int otherPos) {
    int p = pos;
    int o = otherPos;
    while (true) {
      int len = data[p] & 0xff;
      if ((len & 0xc0) == 0xc0) {
        p = ((len & 0x3f) << 8) | (data[p + 1] & 0xff);
        continue;
      }
      if (o >= other.length || (other[o] & 0xff) != len) {
        return false;
      }
      if (len == 0) {
        return true;
      }
      if (o + 1 + len > other.length) {
        return false;
      }
      for (int i = 1; i <= len; i++) {
        if (lower(data[p + i]) != lower(other[o + i])) {
          return false;
        }
      }
      p += 1 + len;
      o += 1 + len;
    }
  }

  private static int lower(byte b) {
    return b >= 'A' && b <= 'Z' ? b + ('a' - 'A') : b;
  }

  /** True when the owner of record {@code r} is the question name (already matched). */
  private boolean ownedByQuestion(int r, EncodedQuery query) {
    int owner = records[r + OWNER];
    if ((data[owner] & 0xff) == 0xc0 && (data[owner + 1] & 0xff) == HEADER) {
      return true; // a pointer to the question name, the usual form
    }
    return sameName(owner, query.wire(), HEADER);
  }

  /**
   * The response code, with EDNS's extended bits from the first OPT record of the additional
   * section (RFC 6891 §6.1.3), as dnsjava's {@code Message.getRcode()}.
   */
  int rcode() {
    int rcode = data[3] & 0x0f;
    int first = (answers + authority) * STRIDE;
    for (int i = 0; i < additional; i++) {
      int r = first + i * STRIDE;
      if (records[r + TYPE] == TYPE_OPT) {
        return rcode + ((records[r + TTL] >>> 24) << 4);
      }
    }
    return rcode;
  }

  /**
   * The answer to an A or AAAA question when the reply has the usual shape, exactly as {@link
   * ReplyClassifier#classify} would give it; {@code null} for any other shape (a CNAME in the
   * answer, records read by dnsjava, a truncated reply, another question type), which the caller
   * classifies through {@link #message()}.
   *
   * @param query the question, which {@link #answers} matched
   * @param maxRecords the most address records taken
   */
  QueryResult addressResult(EncodedQuery query, int maxRecords) {
    RecordType qtype = query.type();
    if ((qtype != RecordType.A && qtype != RecordType.AAAA) || message != null || truncated()) {
      return null;
    }
    int rcode = rcode();
    switch (rcode) {
      case DnsReply.NOERROR -> {
        return noError(query, maxRecords);
      }
      case DnsReply.NXDOMAIN -> {
        return new QueryResult(ProbeStatus.NXDOMAIN, List.of(), negativeTtl(), false, "");
      }
      case DnsReply.SERVFAIL -> {
        return QueryResult.of(ProbeStatus.SERVFAIL, "");
      }
      case DnsReply.REFUSED -> {
        return QueryResult.of(ProbeStatus.REFUSED, "");
      }
      default -> {
        return QueryResult.of(ProbeStatus.ERROR, "response code " + rcode);
      }
    }
  }

  private QueryResult noError(EncodedQuery query, int maxRecords) {
    int qtype = query.type().code();
    int owned = 0;
    for (int i = 0; i < answers; i++) {
      int r = i * STRIDE;
      int type = records[r + TYPE];
      if (type == TYPE_CNAME) {
        return null; // a chain to follow: the classifier's job
      }
      if (type == qtype && ownedByQuestion(r, query)) {
        owned++;
      }
    }
    if (owned > 0) {
      return addresses(query, maxRecords);
    }
    if (answers == 0 && referral()) {
      return QueryResult.of(ProbeStatus.ERROR, "referral: the server does not serve this name");
    }
    return new QueryResult(ProbeStatus.NODATA, List.of(), negativeTtl(), false, "");
  }

  private QueryResult addresses(EncodedQuery query, int maxRecords) {
    int qtype = query.type().code();
    List<IpLiteral> out = new ArrayList<>(Math.min(answers, Math.max(maxRecords, 0)));
    Set<IpLiteral> seen = null; // for long answers only: a short list is searched faster
    long minTtl = Long.MAX_VALUE;
    int taken = 0;
    boolean capped = false;
    for (int i = 0; i < answers; i++) {
      int r = i * STRIDE;
      if (records[r + TYPE] != qtype || !ownedByQuestion(r, query)) {
        continue; // records of other names or types are ignored
      }
      if (taken >= maxRecords) {
        capped = true;
        break;
      }
      taken++;
      IpLiteral ip = qtype == TYPE_A ? ipv4(records[r + DATA]) : ipv6(records[r + DATA]);
      if (seen == null && out.size() >= SHORT_ANSWER) {
        seen = new HashSet<>(out);
      }
      if (seen == null ? !out.contains(ip) : seen.add(ip)) {
        out.add(ip);
      }
      minTtl = Math.min(minTtl, Integer.toUnsignedLong(records[r + TTL]));
    }
    if (out.isEmpty()) {
      return new QueryResult(ProbeStatus.ERROR, List.of(), null, capped, "");
    }
    return new QueryResult(ProbeStatus.OK, out, minTtl, capped, "");
  }

  private IpLiteral ipv4(int at) {
    return new IpLiteral(
        IpLiteral.Family.IPV4,
        (data[at] & 0xff)
            + "."
            + (data[at + 1] & 0xff)
            + "."
            + (data[at + 2] & 0xff)
            + "."
            + (data[at + 3] & 0xff));
  }

  /** An AAAA address in canonical form; an IPv4-mapped address becomes IPv4, as everywhere. */
  private IpLiteral ipv6(int at) {
    StringBuilder text = new StringBuilder(39);
    for (int g = 0; g < 8; g++) {
      if (g > 0) {
        text.append(':');
      }
      text.append(Integer.toHexString(u16(data, at + 2 * g)));
    }
    return IpLiteral.parse(text.toString()).orElseThrow(); // 8 groups always parse
  }

  /** An NS in the authority section and no SOA: the server refers elsewhere. */
  private boolean referral() {
    boolean ns = false;
    for (int i = 0; i < authority; i++) {
      int type = records[(answers + i) * STRIDE + TYPE];
      if (type == TYPE_SOA) {
        return false;
      }
      ns |= type == TYPE_NS;
    }
    return ns;
  }

  /** RFC 2308 §5: the smaller of the first authority SOA's TTL and MINIMUM, else null. */
  private Long negativeTtl() {
    for (int i = 0; i < authority; i++) {
      int r = (answers + i) * STRIDE;
      if (records[r + TYPE] == TYPE_SOA) {
        long minimum = u32(data, records[r + DATA] + records[r + LENGTH] - 4);
        return Math.min(Integer.toUnsignedLong(records[r + TTL]), minimum);
      }
    }
    return null;
  }

  /**
   * The reply as a dnsjava message, read on first use (kept when {@link #read} already needed it).
   *
   * @throws MalformedException when dnsjava cannot read it (possible only for a truncated reply)
   */
  Message message() throws MalformedException {
    if (message == null) {
      message = parse(data);
    }
    return message;
  }
}
