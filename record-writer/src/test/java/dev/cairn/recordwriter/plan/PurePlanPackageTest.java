package dev.cairn.recordwriter.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The core stays pure: the plan package imports only java.* and common-model, reads no clock. */
class PurePlanPackageTest {

  @Test
  void importsOnlyJavaAndTheContract() throws IOException {
    Path dir = Path.of("src/main/java/dev/cairn/recordwriter/plan");
    List<String> offending;
    try (Stream<Path> files = Files.list(dir)) {
      offending =
          files
              .filter(f -> f.toString().endsWith(".java"))
              .flatMap(
                  f -> {
                    try {
                      return Files.readAllLines(f).stream()
                          .filter(l -> l.startsWith("import "))
                          .filter(
                              l ->
                                  !l.startsWith("import java.")
                                      && !l.startsWith("import static java.")
                                      && !l.startsWith("import dev.cairn.commonmodel.")
                                      && !l.startsWith("import dev.cairn.recordwriter.plan."))
                          .map(l -> f.getFileName() + ": " + l);
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .toList();
    }
    assertThat(offending).isEmpty();
  }

  @Test
  void readsNoClock() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/cairn/recordwriter/plan"))) {
      List<String> offending =
          files
              .filter(
                  f -> {
                    try {
                      String s = Files.readString(f);
                      return s.contains("Instant.now(")
                          || s.contains("System.currentTimeMillis")
                          || s.contains("Clock.");
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .map(Path::toString)
              .toList();
      assertThat(offending).isEmpty();
    }
  }
}
