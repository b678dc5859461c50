package dev.cairn.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Prometheus's promtool (Debian package {@code prometheus}), run as users run it. When it is
 * missing the calling test is skipped with a visible reason, unless {@code
 * -Dcairn.interop.required=true} (set by CI), which makes the skip a failure.
 */
final class Promtool {

  private final String executable;

  private Promtool(String executable) {
    this.executable = executable;
  }

  static Promtool findOrSkip() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path candidate = Path.of(dir, "promtool");
      if (Files.isExecutable(candidate)) {
        return new Promtool(candidate.toString());
      }
    }
    String reason = "promtool is not installed (apt-get install prometheus); skipping this check";
    if (Boolean.getBoolean("cairn.interop.required")) {
      throw new AssertionError(reason + ", but cairn.interop.required=true");
    }
    System.err.println("SKIPPED: " + reason);
    Assumptions.abort(reason);
    throw new IllegalStateException("unreachable");
  }

  /** How a run ended, with its standard output and error together. */
  record Result(int exitCode, String output) {}

  Result run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(executable));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
    return new Result(p.exitValue(), output);
  }
}
