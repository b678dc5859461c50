package dev.cairn.dnsresponder.server;

import dev.cairn.dnsresponder.answer.AnswerView;
import dev.cairn.dnsresponder.answer.QueryAnswerer;
import dev.cairn.dnsresponder.answer.Reply;
import dev.cairn.dnsresponder.answer.WireQuery;
import dev.cairn.dnsresponder.metrics.ResponderMetrics;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
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
 * Turns received bytes into the bytes to send back: parse, answer from the current view, rate-limit
 * (UDP), encode (truncating over UDP), count. Shared by the UDP workers and the TCP loop; each
 * thread brings its own {@link Workspace}.
 *
 * <p>A query of the common shape ({@link WireQuery}) is answered on the fast path, straight from
 * the view's wire index into the workspace's buffer, with nothing allocated for the usual answers.
 * Everything else, and whatever the fast path declines, is parsed by dnsjava and answered by the
 * full path; both give the same response.
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
   * What one thread reuses from query to query: the parsed query and the response buffer. Not
   * thread-safe.
   */
  public static final class Workspace {
    private final WireQuery query = new WireQuery();
    private final ByteBuffer response = ByteBuffer.allocate(Reply.MAX_TCP);
  }

  /** A new workspace, for one thread. */
  public Workspace workspace() {
    return new Workspace();
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
    ByteBuffer response = process(query, 0, query.length, client, udp, new Workspace());
    if (response == null) {
      return null;
    }
    byte[] bytes = new byte[response.remaining()];
    response.get(bytes);
    return bytes;
  }

  /**
   * Processes one query held in {@code bytes[offset, offset + length)}.
   *
   * @param client the peer's address
   * @param udp whether it came over UDP (size limit, rate limiting)
   * @param workspace the calling thread's workspace
   * @return the response, in the workspace's buffer from its position to its limit (valid until the
   *     workspace's next use), or {@code null} to send nothing
   */
  public ByteBuffer process(
      byte[] bytes, int offset, int length, InetAddress client, boolean udp, Workspace workspace) {
    long start = System.nanoTime();
    WireQuery wire = workspace.query;
    ByteBuffer out = workspace.response;
    AnswerView current = view.get();
    if (wire.read(bytes, offset, length)) {
      int rcode;
      try {
        rcode = answerer.answer(current, wire, client, udp, out.clear());
      } catch (RuntimeException e) {
        logRarely(e, client, "the fast path failed; the full path answers");
        rcode = QueryAnswerer.NOT_HANDLED;
      }
      if (rcode != QueryAnswerer.NOT_HANDLED) {
        if (udp && limiter != null) {
          ResponseRateLimiter.Decision decision = limiter.check(client, start);
          if (decision != ResponseRateLimiter.Decision.SEND) {
            boolean slip = decision == ResponseRateLimiter.Decision.SLIP;
            metrics.rateLimited(slip);
            if (!slip) {
              return null;
            }
            answerer.truncated(wire, out.clear());
            return out;
          }
        }
        metrics.answered(rcode, wire.qtype(), udp, System.nanoTime() - start);
        return out;
      }
    }
    byte[] response = processFully(bytes, offset, length, current, client, udp, start);
    return response == null ? null : out.clear().put(response).flip();
  }

  /** The full path: dnsjava parses the query and {@link QueryAnswerer} answers it. */
  private byte[] processFully(
      byte[] bytes,
      int offset,
      int length,
      AnswerView current,
      InetAddress client,
      boolean udp,
      long start) {
    Message message;
    try {
      message = new Message(ByteBuffer.wrap(bytes, offset, length));
    } catch (IOException | RuntimeException e) {
      byte[] raw = Arrays.copyOfRange(bytes, offset, offset + length);
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
      reply = answerer.answer(current, message, client);
    } catch (RuntimeException e) {
      logRarely(e, client, "answering a query failed; sending SERVFAIL: " + message.getQuestion());
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

  /** Logs at most one line per interval: a bug hit by every query must not flood the log. */
  private void logRarely(RuntimeException e, InetAddress client, String message) {
    long now = System.nanoTime();
    long last = lastErrorLog.get();
    if (now - last > ERROR_LOG_INTERVAL && lastErrorLog.compareAndSet(last, now)) {
      log.atError().addKeyValue("client", client.getHostAddress()).setCause(e).log(message);
    }
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
