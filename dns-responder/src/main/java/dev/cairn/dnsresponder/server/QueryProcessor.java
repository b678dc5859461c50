package dev.cairn.dnsresponder.server;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.QueryAnswerer;
import dev.cairn.dnsresponder.answer.Reply;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Section;

/**
 * Turns received bytes into the bytes to send back: parse, rate-limit (UDP), answer from the
 * current view, encode (truncating over UDP), count. Shared by the UDP workers and the TCP loop.
 */
public final class QueryProcessor {

  private static final Logger log = LoggerFactory.getLogger(QueryProcessor.class);
  private static final long ERROR_LOG_INTERVAL = 10_000_000_000L;

  private final Supplier<AnswerView> view;
  private final QueryAnswerer answerer;
  private final ResponseRateLimiter limiter;
  private final ResponderMetrics metrics;
  private final AtomicLong lastErrorLog = new AtomicLong(System.nanoTime() - ERROR_LOG_INTERVAL);

  /**
   * @param view the current view (read once per query)
   * @param answerer the answer logic
   * @param limiter the UDP response rate limiter, or {@code null} for none
   * @param metrics where queries are counted
   */
  public QueryProcessor(
      Supplier<AnswerView> view,
      QueryAnswerer answerer,
      ResponseRateLimiter limiter,
      ResponderMetrics metrics) {
    this.view = Objects.requireNonNull(view, "view");
    this.answerer = Objects.requireNonNull(answerer, "answerer");
    this.limiter = limiter;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Processes one query.
   *
   * @param query the message bytes (without the TCP length prefix)
   * @param client the peer's address
   * @param udp whether it came over UDP (size limit, rate limiting)
   * @return the response bytes, or {@code null} to send nothing
   */
  public byte[] process(byte[] query, InetAddress client, boolean udp) {
    return process(ByteBuffer.wrap(query), client, udp);
  }

  /**
   * Processes one query held in a buffer (from its position to its limit), without copying it
   * unless it is malformed.
   */
  public byte[] process(ByteBuffer query, InetAddress client, boolean udp) {
    long start = System.nanoTime();
    Message message;
    int position = query.position();
    try {
      message = new Message(query);
    } catch (IOException | RuntimeException e) {
      query.position(position);
      byte[] raw = new byte[query.remaining()];
      query.get(raw);
      byte[] formErr = QueryAnswerer.formatError(raw);
      if (formErr == null) {
        metrics.dropped();
      } else {
        metrics.answered(Rcode.FORMERR, -1, udp, System.nanoTime() - start);
      }
      return formErr;
    }
    if (message.getHeader().getFlag(Flags.QR)) {
      metrics.dropped();
      return null;
    }
    Reply reply;
    try {
      reply = answerer.answer(view.get(), message, client);
    } catch (RuntimeException e) {
      long now = System.nanoTime();
      long last = lastErrorLog.get();
      if (now - last > ERROR_LOG_INTERVAL && lastErrorLog.compareAndSet(last, now)) {
        // At most one line per interval: a bug hit by every query must not flood the log.
        log.atError()
            .addKeyValue("client", client.getHostAddress())
            .addKeyValue("question", message.getQuestion())
            .setCause(e)
            .log("answering a query failed; sending SERVFAIL");
      }
      metrics.answered(Rcode.SERVFAIL, -1, udp, System.nanoTime() - start);
      return serverFailure(message);
    }
    if (udp && limiter != null) {
      ResponseRateLimiter.Decision decision = limiter.check(client, start);
      if (decision != ResponseRateLimiter.Decision.SEND) {
        boolean slip = decision == ResponseRateLimiter.Decision.SLIP;
        metrics.rateLimited(slip);
        return slip ? reply.truncatedWire() : null;
      }
    }
    byte[] wire = reply.wire(udp);
    metrics.answered(reply.rcode(), reply.qtype(), udp, System.nanoTime() - start);
    return wire;
  }

  private static byte[] serverFailure(Message query) {
    Message response = new Message(query.getHeader().getID());
    response.getHeader().setFlag(Flags.QR);
    response.getHeader().setOpcode(query.getHeader().getOpcode());
    if (query.getHeader().getFlag(Flags.RD)) {
      response.getHeader().setFlag(Flags.RD);
    }
    if (query.getQuestion() != null) {
      response.addRecord(query.getQuestion(), Section.QUESTION);
    }
    response.getHeader().setRcode(Rcode.SERVFAIL);
    return response.toWire(512);
  }
}
