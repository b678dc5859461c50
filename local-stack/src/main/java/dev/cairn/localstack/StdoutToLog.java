package dev.cairn.localstack;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends what a library prints to {@link System#out} while it runs a step into the log instead, one
 * log line per printed line. The embedded broker formats its storage with Kafka's {@code
 * Formatter}, which prints "Formatting metadata directory … with metadata.version …" to standard
 * output where no log filter sees it; logged by {@link #LOGGER_NAME}, {@link KnownNoiseFilter}
 * keeps it off the console and the file log keeps it.
 */
final class StdoutToLog {

  /** The logger the captured lines are logged by, at INFO. */
  static final String LOGGER_NAME = "dev.cairn.localstack.EmbeddedBroker";

  private static final Logger log = LoggerFactory.getLogger(LOGGER_NAME);

  private StdoutToLog() {}

  /** Runs {@code step} with standard output going to the log, and restores it. */
  static <T> T capture(Supplier<T> step) {
    return capture(line -> log.info("{}", line), step);
  }

  /**
   * Runs {@code step} with every line printed to standard output handed to {@code lines}, and
   * restores standard output, even when the step fails.
   */
  static synchronized <T> T capture(Consumer<String> lines, Supplier<T> step) {
    PrintStream original = System.out;
    LineSplitter splitter = new LineSplitter(lines);
    System.setOut(new PrintStream(splitter, true, StandardCharsets.UTF_8));
    try {
      return step.get();
    } finally {
      System.out.flush();
      System.setOut(original);
      splitter.close();
    }
  }

  /** Hands on each complete line; a last line without a line break on close. */
  private static final class LineSplitter extends OutputStream {
    private final Consumer<String> lines;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineSplitter(Consumer<String> lines) {
      this.lines = lines;
    }

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        emit();
      } else {
        line.write(b);
      }
    }

    private void emit() {
      String text = line.toString(StandardCharsets.UTF_8);
      line.reset();
      if (text.endsWith("\r")) {
        text = text.substring(0, text.length() - 1);
      }
      if (!text.isEmpty()) {
        lines.accept(text);
      }
    }

    @Override
    public synchronized void close() {
      if (line.size() > 0) {
        emit();
      }
    }
  }
}
