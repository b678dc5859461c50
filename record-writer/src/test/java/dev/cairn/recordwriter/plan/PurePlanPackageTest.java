package dev.cairn.recordwriter.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The core stays pure: the plan, status, notice and ingress packages import only java.*,
 * common-model and each other, and read no clock.
 */
class PurePlanPackageTest {

  private static final String ROOT = "src/main/java/dev/cairn/recordwriter/";

  @ParameterizedTest
  @ValueSource(strings = {"plan", "status", "notice", "ingress"})
  void importsOnlyJavaAndTheContract(String pkg) throws IOException {
    List<String> offending;
    try (Stream<Path> files = Files.list(Path.of(ROOT + pkg))) {
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
                                      && !l.startsWith("import dev.cairn.recordwriter.plan.")
                                      && !l.startsWith("import dev.cairn.recordwriter.status.")
                                      && !l.startsWith("import dev.cairn.recordwriter.notice.")
                                      && !l.startsWith("import dev.cairn.recordwriter.ingress."))
                          .map(l -> f.getFileName() + ": " + l);
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .toList();
    }
    assertThat(offending).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"plan", "status", "notice", "ingress"})
  void readsNoClock(String pkg) throws IOException {
    try (Stream<Path> files = Files.list(Path.of(ROOT + pkg))) {
      List<String> offending =
          files
              .filter(
                  f -> {
                    try {
                      String s = Files.readString(f);
                      return s.contains("Instant.now(")
                          || s.contains("System.currentTimeMillis")
                          || s.contains("System.nanoTime")
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
