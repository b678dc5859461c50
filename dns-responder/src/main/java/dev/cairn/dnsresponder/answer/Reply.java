package dev.cairn.dnsresponder.answer;

import java.util.Objects;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Section;

/**
 * A response and how to put it on the wire.
 *
 * @param message the full response
 * @param rcode the (extended) response code, for metrics
 * @param qtype the question's type, or -1 without a question
 * @param udpLimit the largest UDP response the client accepts: 512 without EDNS, else the smaller
 *     of its advertised size and ours (never below 512)
 */
public record Reply(Message message, int rcode, int qtype, int udpLimit) {

  /** The largest DNS message (TCP). */
  public static final int MAX_TCP = 65535;

  public Reply {
    Objects.requireNonNull(message, "message");
  }

  /**
   * The response in wire format. Over UDP, a response that does not fit {@link #udpLimit} loses
   * whole RRsets from the end and carries the TC bit, so the client retries over TCP (RFC 2181 §9);
   * over TCP it is sent whole.
   */
  public byte[] wire(boolean udp) {
    return message.toWire(udp ? udpLimit : MAX_TCP);
  }

  /**
   * An empty truncated response (header, question, OPT, TC set): what a rate-limited client gets on
   * a "slip", so a real client retries over TCP while a spoofed victim gets nothing bigger than the
   * query.
   */
  public byte[] truncatedWire() {
    Message tc = new Message(message.getHeader().getID());
    tc.getHeader().setFlag(Flags.QR);
    tc.getHeader().setFlag(Flags.TC);
    if (message.getHeader().getFlag(Flags.RD)) {
      tc.getHeader().setFlag(Flags.RD);
    }
    tc.getHeader().setOpcode(message.getHeader().getOpcode());
    if (message.getQuestion() != null) {
      tc.addRecord(message.getQuestion(), Section.QUESTION);
    }
    if (message.getOPT() != null) {
      tc.addRecord(message.getOPT(), Section.ADDITIONAL);
    }
    return tc.toWire(udpLimit);
  }
}
