package dev.cairn.dnsresponder.answer;

/**
 * A query of the common shape, read straight from its wire bytes without building dnsjava objects:
 * a QUERY (QR clear, opcode 0) with exactly one question of class IN whose name has no compression
 * pointer, no answer or authority records, and at most one additional record, which is an OPT of
 * version 0 owned by the root. EDNS options are skipped (the answer does not depend on them) except
 * when dnsjava would interpret them: a client subnet option (geo answers and its echo depend on
 * it), TCP keepalive and extended errors (dnsjava checks them), and a cookie of a length dnsjava
 * refuses. Those, and every other shape, are left to the full parser ({@link #read} returns false),
 * which gives the same answer more slowly; {@link #read} never accepts a message the full parser
 * would reject or read differently.
 *
 * <p>The question name is kept twice: as received (the response repeats the client's spelling) and
 * lower-cased with its hash, for the look-ups. Mutable and reused: one instance per thread.
 */
public final class WireQuery {

  /** The DNS header length. */
  static final int HEADER = 12;

  private static final int MAX_NAME = 255;
  private static final int TYPE_OPT = 41;
  private static final int CLASS_IN = 1;
  private static final int OPT_CLIENT_SUBNET = 8;
  private static final int OPT_COOKIE = 10;
  private static final int OPT_TCP_KEEPALIVE = 11;
  private static final int OPT_EXTENDED_ERROR = 15;

  private byte[] message;
  private int offset;
  private int id;
  private int flags;
  private int nameLength;
  private final byte[] lowerName = new byte[MAX_NAME];
  private final int[] labelStarts = new int[MAX_NAME / 2 + 1];
  private int labelCount;
  private int nameHash;
  private int qtype;
  private boolean edns;
  private int payloadSize;
  private int ednsFlags;
  private int[] order = new int[16];

  /**
   * Reads a message.
   *
   * @param bytes the buffer holding the message
   * @param start where the message starts
   * @param length its length
   * @return true when it is a query of the common shape, now held by this object (until the next
   *     call); false when the full parser must decide (malformed, unusual or a response)
   */
  public boolean read(byte[] bytes, int start, int length) {
    int end = start + length;
    if (length < HEADER) {
      return false;
    }
    int headerFlags = u16(bytes, start + 2);
    if ((headerFlags & 0xF800) != 0 // QR set or an opcode other than QUERY
        || u16(bytes, start + 4) != 1
        || u16(bytes, start + 6) != 0
        || u16(bytes, start + 8) != 0) {
      return false;
    }
    int additional = u16(bytes, start + 10);
    if (additional > 1) {
      return false;
    }
    int pos = start + HEADER;
    int n = 0;
    int labels = 0;
    int hash = 0;
    while (true) {
      if (pos >= end) {
        return false;
      }
      int len = bytes[pos] & 0xFF;
      if (len == 0) {
        lowerName[n++] = 0;
        pos++;
        break;
      }
      if (len > 63 || n + 1 + len >= MAX_NAME || pos + 1 + len > end) {
        return false; // a pointer, an extended label type, too long or cut short
      }
      labelStarts[labels++] = n;
      lowerName[n++] = (byte) len;
      hash = 31 * hash + len;
      pos++;
      for (int i = 0; i < len; i++, pos++) {
        int b = bytes[pos] & 0xFF;
        if (b >= 'A' && b <= 'Z') {
          b += 'a' - 'A';
        }
        lowerName[n++] = (byte) b;
        hash = 31 * hash + b;
      }
    }
    if (pos + 4 > end || u16(bytes, pos + 2) != CLASS_IN) {
      return false;
    }
    int type = u16(bytes, pos);
    pos += 4;
    boolean opt = false;
    int size = 0;
    int optFlags = 0;
    if (additional == 1) {
      // The OPT record: root owner (one zero octet), type, class = payload size, TTL = extended
      // rcode, version and flags, then the options.
      if (pos + 11 > end || bytes[pos] != 0 || u16(bytes, pos + 1) != TYPE_OPT) {
        return false;
      }
      if ((bytes[pos + 6] & 0xFF) != 0) {
        return false; // EDNS version above 0: BADVERS
      }
      size = u16(bytes, pos + 3);
      optFlags = u16(bytes, pos + 7);
      int rdLength = u16(bytes, pos + 9);
      pos += 11;
      if (pos + rdLength > end || !optionsAreInert(bytes, pos, pos + rdLength)) {
        return false;
      }
      opt = true;
    }
    this.message = bytes;
    this.offset = start;
    this.id = u16(bytes, start);
    this.flags = headerFlags;
    this.nameLength = n;
    this.labelCount = labels;
    this.nameHash = hash;
    this.qtype = type;
    this.edns = opt;
    this.payloadSize = size;
    this.ednsFlags = optFlags;
    return true;
  }

  private static boolean optionsAreInert(byte[] bytes, int pos, int end) {
    while (pos < end) {
      if (pos + 4 > end) {
        return false;
      }
      int code = u16(bytes, pos);
      int length = u16(bytes, pos + 2);
      pos += 4;
      if (pos + length > end) {
        return false;
      }
      switch (code) {
        case OPT_CLIENT_SUBNET, OPT_TCP_KEEPALIVE, OPT_EXTENDED_ERROR -> {
          return false;
        }
        case OPT_COOKIE -> {
          if (length != 8 && (length < 16 || length > 40)) {
            return false;
          }
        }
        default -> {
          // opaque to dnsjava and to the answer
        }
      }
      pos += length;
    }
    return true;
  }

  /** The hash of a lower-case wire name without its final zero octet, as {@link #nameHash()}. */
  static int hash(byte[] wire, int from, int to) {
    int h = 0;
    for (int i = from; i < to; i++) {
      h = 31 * h + (wire[i] & 0xFF);
    }
    return h;
  }

  static int u16(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  /** The message ID. */
  public int id() {
    return id;
  }

  /** The question type. */
  public int qtype() {
    return qtype;
  }

  boolean recursionDesired() {
    return (flags & 0x0100) != 0;
  }

  /** Whether the query carried an OPT record. */
  boolean edns() {
    return edns;
  }

  /** The UDP payload size the client advertised (OPT class); 0 without EDNS. */
  int payloadSize() {
    return payloadSize;
  }

  /** The EDNS flags (the low 16 bits of the OPT TTL). */
  int ednsFlags() {
    return ednsFlags;
  }

  /** The message buffer and where the question starts in it (right after the header). */
  byte[] message() {
    return message;
  }

  int questionStart() {
    return offset + HEADER;
  }

  /** The question's length on the wire: the name, type and class. */
  int questionLength() {
    return nameLength + 4;
  }

  /** The wire length of the name, its final zero octet included. */
  int nameLength() {
    return nameLength;
  }

  /** The lower-cased name in wire form: {@code lowerName()[0 .. nameLength())}. */
  byte[] lowerName() {
    return lowerName;
  }

  /** {@link #hash} of the lower-cased name. */
  int nameHash() {
    return nameHash;
  }

  int labelCount() {
    return labelCount;
  }

  /** Where label {@code i} (0 = the leftmost) starts in the name. */
  int labelStart(int i) {
    return labelStarts[i];
  }

  /** A scratch array of at least {@code n} ints for index shuffles. */
  int[] order(int n) {
    if (order.length < n) {
      order = new int[Math.max(n, order.length * 2)];
    }
    return order;
  }
}
