package dev.cairn.topologywatcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The core packages import only java.*, common-model and each other: no Spring, Kafka, fabric8. */
class CorePurityTest {

  private static final Path MAIN = Path.of("src/main/java/dev/cairn/topologywatcher");

  @ParameterizedTest
  @ValueSource(strings = {"normalize", "state"})
  void importsOnlyJavaAndTheContract(String corePackage) throws IOException {
    List<Path> sources;
    try (Stream<Path> files = Files.list(MAIN.resolve(corePackage))) {
      sources = files.filter(f -> f.toString().endsWith(".java")).toList();
    }
    assertThat(sources).isNotEmpty();
    for (Path source : sources) {
      for (String line : Files.readAllLines(source)) {
        if (line.startsWith("import ")) {
          assertThat(line)
              .as("%s", source.getFileName())
              .matches(
                  "import (static )?(java\\.|dev\\.cairn\\.commonmodel\\.|dev\\.cairn\\.topologywatcher\\.(normalize|state)\\.).*");
          assertThat(line)
              .as("%s reads the clock", source.getFileName())
              .doesNotContain("java.time.Clock");
        }
      }
    }
  }
}
