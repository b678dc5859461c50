package dev.cairn.localstack;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Leaves out of the local stack's console the warnings that every start and stop of the embedded
 * stack prints and that say nothing is wrong: Kafka Streams' internal topics not created yet when a
 * consumer first asks for them, the Streams state directory under the OS temp directory (the stack
 * is throwaway by design), the embedded KRaft controller's first activation, the global consumer's
 * high watermark after its restore, the controller channel closed twice at shutdown, the broker's
 * storage formatter saying which directory it formats (printed to standard output, which {@link
 * StdoutToLog} turns into log lines), and fabric8 noting that DNSEndpoint and Gslb are served at
 * {@code v1alpha1} and {@code v1beta1} (their only versions). Each is matched by its logger and its
 * message, so the same logger's other warnings (a broker that cannot be reached, a topic of Cairn's
 * own that is missing) still show; errors always show. The file log keeps everything ({@code
 * logback.xml} puts this filter on the console appender only).
 */
public final class KnownNoiseFilter extends Filter<ILoggingEvent> {

  /** A known harmless warning: the logger's simple name and a test on the formatted message. */
  record Known(String logger, Predicate<String> message) {}

  private static final Pattern TOPIC_ERROR = Pattern.compile("([\\w.\\-]+)=([A-Z_]+)");

  static final List<Known> KNOWN =
      List.of(
          new Known("NetworkClient", KnownNoiseFilter::onlyStreamsInternalTopicsMissing),
          new Known(
              "NetworkClient",
              m -> m.contains("Attempting to close NetworkClient that has already been closed")),
          new Known("StateDirectory", m -> m.startsWith("Using an OS temp directory")),
          new Known("QuorumController", m -> m.contains("Performing controller activation")),
          new Known(
              "OffsetFetcherUtils",
              m -> m.contains("Not updating high watermark") && m.contains("no longer assigned")),
          new Known(
              simpleName(StdoutToLog.LOGGER_NAME),
              m -> m.startsWith("Formatting ") && m.contains(" with metadata.version ")),
          new Known(
              "VersionUsageUtils",
              m ->
                  m.contains("resource type 'dnsendpoints' with unstable version 'v1alpha1'")
                      || m.contains("resource type 'gslbs' with unstable version 'v1beta1'")));

  @Override
  public FilterReply decide(ILoggingEvent event) {
    if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
      return FilterReply.NEUTRAL;
    }
    String logger = simpleName(event.getLoggerName());
    String message = event.getFormattedMessage();
    if (message == null) {
      return FilterReply.NEUTRAL;
    }
    for (Known known : KNOWN) {
      if (known.logger().equals(logger) && known.message().test(message)) {
        return FilterReply.DENY;
      }
    }
    return FilterReply.NEUTRAL;
  }

  /**
   * True for the consumer's "metadata response ... reported a recoverable issue" when every topic
   * it names is a Kafka Streams repartition or changelog topic that is not there yet: Streams
   * creates them during its first rebalance, after its consumers have asked for them.
   */
  static boolean onlyStreamsInternalTopicsMissing(String message) {
    if (!message.contains("reported a recoverable issue")) {
      return false;
    }
    Matcher m = TOPIC_ERROR.matcher(message);
    boolean any = false;
    while (m.find()) {
      String topic = m.group(1);
      String error = m.group(2);
      boolean internal = topic.endsWith("-repartition") || topic.endsWith("-changelog");
      boolean notYet =
          error.equals("UNKNOWN_TOPIC_OR_PARTITION") || error.equals("LEADER_NOT_AVAILABLE");
      if (!internal || !notYet) {
        return false;
      }
      any = true;
    }
    return any;
  }

  private static String simpleName(String loggerName) {
    return loggerName == null ? "" : loggerName.substring(loggerName.lastIndexOf('.') + 1);
  }
}
