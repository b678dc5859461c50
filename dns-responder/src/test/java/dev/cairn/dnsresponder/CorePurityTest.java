package dev.cairn.dnsresponder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The core packages import only what the style guide allows: {@code zone} only {@code java.*} and
 * common-model; {@code answer} also the DNS data model (dnsjava) and {@code zone}. No Spring,
 * fabric8, Micrometer or logging in either.
 */
class CorePurityTest {

  private static final Path SOURCES = Path.of("src/main/java/dev/cairn/dnsresponder");

  @ParameterizedTest
  @CsvSource({
    "zone, java.|dev.cairn.commonmodel.|dev.cairn.dnsresponder.zone.",
    "answer, java.|dev.cairn.commonmodel.|dev.cairn.dnsresponder.zone.|dev.cairn.dnsresponder.answer.|org.xbill.DNS."
  })
  void corePackagesImportOnlyAllowedTypes(String pkg, String allowed) throws IOException {
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        for (String line : Files.readAllLines(file)) {
          if (!line.startsWith("import ")) {
            continue;
          }
          String imported = line.replace("import static ", "").replace("import ", "");
          boolean ok = false;
          for (String prefix : allowed.split("\\|")) {
            ok |= imported.startsWith(prefix);
          }
          if (!ok) {
            violations.add(file.getFileName() + ": " + line);
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }
}
