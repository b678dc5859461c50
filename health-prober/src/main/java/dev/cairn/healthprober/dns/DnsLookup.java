package dev.cairn.healthprober.dns;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.healthprober.peer.ServerAddress;
import dev.cairn.healthprober.probe.DnsReply;
import dev.cairn.healthprober.probe.QueryResult;
import dev.cairn.healthprober.probe.ReplyClassifier;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One question asked of a list of servers: the first attempt goes to {@code servers[start]}, and
 * while the answer is unreachable (timeout, error, SERVFAIL, REFUSED) and attempts remain, the next
 * attempt goes to the next server in turn. Every reply is classified by the pure {@link
 * ReplyClassifier}.
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
    if (servers.isEmpty()) {
      return CompletableFuture.completedFuture(
          new Answer(QueryResult.of(ProbeStatus.ERROR, "no servers"), null, null));
    }
    return attempt(
        query,
        servers,
        Math.floorMod(start, servers.size()),
        1,
        attempts,
        timeout,
        bailiwick,
        latency);
  }

  private CompletableFuture<Answer> attempt(
      EncodedQuery query,
      List<ServerAddress> servers,
      int index,
      int attempt,
      int attempts,
      Duration timeout,
      String bailiwick,
      LatencyListener latency) {
    ServerAddress server = servers.get(index);
    return client
        .send(query, server, timeout)
        .thenCompose(
            exchange -> {
              Answer answer = classify(query, exchange, bailiwick, latency);
              if (answer.result().status().reachable() || attempt >= attempts) {
                return CompletableFuture.completedFuture(answer);
              }
              return attempt(
                  query,
                  servers,
                  (index + 1) % servers.size(),
                  attempt + 1,
                  attempts,
                  timeout,
                  bailiwick,
                  latency);
            });
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
    DnsReply reply = ReplyReader.read(exchange.reply(), query);
    QueryResult result =
        ReplyClassifier.classify(query.qname(), query.type(), reply, bailiwick, maxRecords);
    return new Answer(result, exchange.server(), reply);
  }

  /**
   * The end of a lookup.
   *
   * @param result the classified result of the last attempt
   * @param server the server of the last attempt
   * @param reply the last reply, {@code null} when the last attempt got none
   */
  public record Answer(QueryResult result, ServerAddress server, DnsReply reply) {}
}
