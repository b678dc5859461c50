package dev.cairn.localstack;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.tools.EndToEndLatency;

/**
 * Kafka's own {@code org.apache.kafka.tools.EndToEndLatency} run in this JVM against the stack's
 * broker: it produces one record (acks=1, linger 0), polls until it has it back, and repeats. Its
 * percentiles are whole milliseconds, truncated.
 *
 * @param messages how many round trips
 * @param avgMillis the mean
 * @param p50 the median in whole ms (truncated)
 * @param p99 the 99th percentile in whole ms (truncated)
 * @param p999 the 99.9th percentile in whole ms (truncated)
 */
record KafkaEndToEnd(int messages, double avgMillis, int p50, int p99, int p999) {

  private static final Pattern AVG = Pattern.compile("Avg latency: ([0-9.]+) ms");
  private static final Pattern PERCENTILES =
      Pattern.compile("Percentiles: 50th = (\\d+), 99th = (\\d+), 99\\.9th = (\\d+)");

  static KafkaEndToEnd run(String bootstrapServers, String topic, int messages, int size) {
    Exit.setExitProcedure(
        (status, message) -> {
          if (status != 0) {
            throw new IllegalStateException("EndToEndLatency exited " + status + ": " + message);
          }
        });
    PrintStream original = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      EndToEndLatency.main(
          bootstrapServers, topic, Integer.toString(messages), "1", Integer.toString(size));
    } finally {
      System.setOut(original);
      Exit.resetExitProcedure();
    }
    String out = captured.toString(StandardCharsets.UTF_8);
    Matcher avg = AVG.matcher(out);
    Matcher p = PERCENTILES.matcher(out);
    if (!avg.find() || !p.find()) {
      throw new IllegalStateException("EndToEndLatency printed no result:\n" + out);
    }
    return new KafkaEndToEnd(
        messages,
        Double.parseDouble(avg.group(1)),
        Integer.parseInt(p.group(1)),
        Integer.parseInt(p.group(2)),
        Integer.parseInt(p.group(3)));
  }
}
