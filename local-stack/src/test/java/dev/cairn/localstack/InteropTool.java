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
 * A real command-line client from a Debian package (kcat, kubectl, dig), run the way users run it.
 * When the tool is missing the calling test is skipped with a visible reason, unless {@code
 * -Dcairn.interop.required=true} (set by CI), which turns the skip into a failure.
 */
final class InteropTool {

  private final String executable;

  private InteropTool(String executable) {
    this.executable = executable;
  }

  /** The tool's path. */
  String executable() {
    return executable;
  }

  /** Finds {@code name} on the PATH, or skips (or fails, in CI) naming the Debian package. */
  static InteropTool findOrSkip(String name, String debianPackage) {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return new InteropTool(candidate.toString());
      }
    }
    String reason =
        name + " is not installed (apt-get install " + debianPackage + "); skipping this check";
    if (Boolean.getBoolean("cairn.interop.required")) {
      throw new AssertionError(reason + ", but cairn.interop.required=true");
    }
    System.err.println("SKIPPED: " + reason);
    Assumptions.assumeTrue(false, reason);
    throw new IllegalStateException("unreachable");
  }

  /** What a run printed and how it ended. */
  record Result(int exitCode, String out, String err) {}

  /**
   * Runs the tool with the arguments, and {@code input} on its standard input when not null;
   * returns how it ended (for checking refusals).
   */
  Result attempt(String input, String... args) {
    List<String> command = new ArrayList<>(List.of(executable));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).start();
      try (var in = p.getOutputStream()) {
        if (input != null) {
          in.write(input.getBytes(StandardCharsets.UTF_8));
        }
      }
      byte[] out = p.getInputStream().readAllBytes();
      byte[] err = p.getErrorStream().readAllBytes();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
      return new Result(
          p.exitValue(),
          new String(out, StandardCharsets.UTF_8),
          new String(err, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Runs the tool with the arguments; asserts exit code 0 and returns stdout's lines. */
  List<String> run(String... args) {
    List<String> command = new ArrayList<>(List.of(executable));
    command.addAll(List.of(args));
    try {
      Process p = new ProcessBuilder(command).start();
      byte[] out = p.getInputStream().readAllBytes();
      byte[] err = p.getErrorStream().readAllBytes();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
      assertThat(p.exitValue())
          .as("exit code of %s, stderr: %s", command, new String(err, StandardCharsets.UTF_8))
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
