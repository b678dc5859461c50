package dev.cairn.healthprober.dns;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.DnsReply;
import dev.cairn.healthprober.probe.QueryResult;
import dev.cairn.healthprober.probe.RecordType;
import dev.cairn.healthprober.probe.ReplyClassifier;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One question asked of a list of servers: the first attempt goes to {@code servers[start]}, and
 * while the answer is unreachable (timeout, error, SERVFAIL, REFUSED) and attempts remain, the next
 * attempt goes to the next server in turn. Every reply is classified as the pure {@link
 * ReplyClassifier} does it: the usual reply to an A or AAAA question straight from the wire ({@link
 * WireReply#addressResult}), any other through the classifier itself.
 */
public final class DnsLookup {

  /** Told the round-trip time of every reply, e.g. for a latency histogram. */
  public interface LatencyListener {
    void onReply(ServerAddress server, long rttNanos);
  }

  private final DnsClient client;
  private final int maxRecords;

  /**
   * @param client the transport
   * @param maxRecords the most address records taken from one reply
   */
  public DnsLookup(DnsClient client, int maxRecords) {
    this.client = client;
    this.maxRecords = maxRecords;
  }

  /** The transport. */
  public DnsClient client() {
    return client;
  }

  /**
   * Asks the question. The future never completes exceptionally.
   *
   * @param query the encoded question
   * @param servers where to ask, in order of preference
   * @param start the index of the first server to ask
   * @param attempts how many queries at most
   * @param timeout the timeout of each attempt
   * @param bailiwick the zone CNAME targets must lie in ("" for any)
   * @param latency told each reply's round-trip time
   */
  public CompletableFuture<Answer> query(
      EncodedQuery query,
      List<ServerAddress> servers,
      int start,
      int attempts,
      Duration timeout,
      String bailiwick,
      LatencyListener latency) {
    CompletableFuture<Answer> future = new CompletableFuture<>();
    query(query, servers, start, attempts, timeout, bailiwick, latency, future::complete);
    return future;
  }

  /**
   * Asks the question; {@code done} is told the answer exactly once, on the DNS reader thread (or
   * the calling thread when nothing could be sent). Callbacks instead of futures keep the hot path
   * of the prober free of per-query future chains.
   *
   * @param query the encoded question
   * @param servers where to ask, in order of preference
   * @param start the index of the first server to ask
   * @param attempts how many queries at most
   * @param timeout the timeout of each attempt
   * @param bailiwick the zone CNAME targets must lie in ("" for any)
   * @param latency told each reply's round-trip time
   * @param done told the answer
   */
  public void query(
      EncodedQuery query,
      List<ServerAddress> servers,
      int start,
      int attempts,
      Duration timeout,
      String bailiwick,
      LatencyListener latency,
      Consumer<Answer> done) {
    query(query, servers, start, attempts, timeout, bailiwick, latency, () -> true, done);
  }

  /**
   * As {@link #query(EncodedQuery, List, int, int, Duration, String, LatencyListener, Consumer)},
   * asking {@code mayRetry} before each attempt after the first: when it says no, the last
   * attempt's answer is the lookup's (a prober stops retrying a peer whose circuit has opened).
   */
  public void query(
      EncodedQuery query,
      List<ServerAddress> servers,
      int start,
      int attempts,
      Duration timeout,
      String bailiwick,
      LatencyListener latency,
      BooleanSupplier mayRetry,
      Consumer<Answer> done) {
    if (servers.isEmpty()) {
      done.accept(new Answer(QueryResult.of(ProbeStatus.ERROR, "no servers"), null, null));
      return;
    }
    new Attempts(query, servers, attempts, timeout.toNanos(), bailiwick, latency, mayRetry, done)
        .send(Math.floorMod(start, servers.size()), 1);
  }

  /** The attempts of one lookup. */
  private final class Attempts {
    private final EncodedQuery query;
    private final List<ServerAddress> servers;
    private final int attempts;
    private final long timeoutNanos;
    private final String bailiwick;
    private final LatencyListener latency;
    private final BooleanSupplier mayRetry;
    private final Consumer<Answer> done;

    Attempts(
        EncodedQuery query,
        List<ServerAddress> servers,
        int attempts,
        long timeoutNanos,
        String bailiwick,
        LatencyListener latency,
        BooleanSupplier mayRetry,
        Consumer<Answer> done) {
      this.query = query;
      this.servers = servers;
      this.attempts = attempts;
      this.timeoutNanos = timeoutNanos;
      this.bailiwick = bailiwick;
      this.latency = latency;
      this.mayRetry = mayRetry;
      this.done = done;
    }

    void send(int index, int attempt) {
      client.send(
          query,
          servers.get(index),
          timeoutNanos,
          exchange -> {
            Answer answer = classify(query, exchange, bailiwick, latency);
            if (answer.result().status().reachable()
                || attempt >= attempts
                || !mayRetry.getAsBoolean()) {
              done.accept(answer);
            } else {
              send((index + 1) % servers.size(), attempt + 1);
            }
          });
    }
  }

  private Answer classify(
      EncodedQuery query, Exchange exchange, String bailiwick, LatencyListener latency) {
    if (exchange.failure() != null) {
      ProbeStatus status =
          exchange.failure() == Exchange.Failure.TIMEOUT ? ProbeStatus.TIMEOUT : ProbeStatus.ERROR;
      return new Answer(QueryResult.of(status, exchange.detail()), exchange.server(), null);
    }
    if (latency != null) {
      latency.onReply(exchange.server(), exchange.rttNanos());
    }
    WireReply wire = exchange.reply();
    boolean addressQuery = query.type() == RecordType.A || query.type() == RecordType.AAAA;
    if (addressQuery) {
      QueryResult direct = wire.addressResult(query, maxRecords);
      if (direct != null) {
        return new Answer(direct, exchange.server(), null);
      }
    }
    DnsReply reply;
    try {
      reply = ReplyReader.read(wire.message(), query);
    } catch (WireReply.MalformedException e) {
      return new Answer(
          QueryResult.of(
              ProbeStatus.ERROR,
              "unreadable reply from " + exchange.server() + ": " + e.getMessage()),
          exchange.server(),
          null);
    }
    QueryResult result =
        ReplyClassifier.classify(query.qname(), query.type(), reply, bailiwick, maxRecords);
    return new Answer(result, exchange.server(), addressQuery ? null : reply);
  }

  /**
   * The end of a lookup.
   *
   * @param result the classified result of the last attempt
   * @param server the server of the last attempt
   * @param reply the last reply, for callers that read its records themselves (e.g. the NS records
   *     of a referral); {@code null} for A and AAAA questions, whose result holds all they need,
   *     and when the last attempt got no reply
   */
  public record Answer(QueryResult result, ServerAddress server, DnsReply reply) {}
}
