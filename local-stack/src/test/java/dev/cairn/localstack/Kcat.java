package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs the real {@code kcat} client (Debian package {@code kcat}), the way users read Cairn's
 * topics: {@code kcat -C -b <addr> -t <topic> -e -K'\t'}. Skips the calling test with a visible
 * reason when kcat is not installed, unless {@code -Dcairn.interop.required=true} (set by CI),
 * which turns the skip into a failure.
 */
final class Kcat {

  /** One consumed record: key and value as kcat printed them. */
  record Line(String key, String value) {}

  private final String executable;

  private Kcat(String executable) {
    this.executable = executable;
  }

  static Kcat findOrSkip() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path candidate = Path.of(dir, "kcat");
      if (Files.isExecutable(candidate)) {
        return new Kcat(candidate.toString());
      }
    }
    String reason = "kcat is not installed (apt-get install kcat); skipping the kcat interop check";
    if (Boolean.getBoolean("cairn.interop.required")) {
      throw new AssertionError(reason + ", but cairn.interop.required=true");
    }
    System.err.println("SKIPPED: " + reason);
    Assumptions.assumeTrue(false, reason);
    return null;
  }

  /** {@code kcat -C -b <servers> -t <topic> -e -q -K'\t'}: every record, key TAB value. */
  List<Line> consume(String servers, String topic) {
    List<Line> lines = new ArrayList<>();
    for (String raw : run(servers, topic, "-K\t")) {
      int tab = raw.indexOf('\t');
      assertThat(tab).as("kcat line has a key separator: %s", raw).isGreaterThanOrEqualTo(0);
      lines.add(new Line(raw.substring(0, tab), raw.substring(tab + 1)));
    }
    return lines;
  }

  /** The key and headers of every record, as kcat prints them ({@code key TAB name=value,...}). */
  List<Line> headers(String servers, String topic) {
    List<Line> lines = new ArrayList<>();
    for (String raw : run(servers, topic, "-f", "%k\t%h\n")) {
      int tab = raw.indexOf('\t');
      lines.add(new Line(raw.substring(0, tab), raw.substring(tab + 1)));
    }
    return lines;
  }

  private List<String> run(String servers, String topic, String... format) {
    List<String> command =
        new ArrayList<>(List.of(executable, "-C", "-b", servers, "-t", topic, "-e", "-q"));
    command.addAll(List.of(format));
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
      byte[] out = p.getInputStream().readAllBytes();
      byte[] err = p.getErrorStream().readAllBytes();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kcat finished").isTrue();
      assertThat(p.exitValue())
          .as("kcat exit code, stderr: %s", new String(err, StandardCharsets.UTF_8))
          .isZero();
      String text = new String(out, StandardCharsets.UTF_8);
      return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
