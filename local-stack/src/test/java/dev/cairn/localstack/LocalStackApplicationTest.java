package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LocalStackApplicationTest {

  @Test
  void helpIsAnOptionAnywhereOnTheLine() {
    assertThat(LocalStackApplication.parse(new String[] {"--help"}).help()).isTrue();
    assertThat(LocalStackApplication.parse(new String[] {"--no-view", "-h"}).help()).isTrue();
    assertThat(LocalStackApplication.parse(new String[] {"--bogus", "--help"}).help()).isTrue();
    assertThat(LocalStackApplication.parse(new String[] {"--no-view"}).help()).isFalse();
  }

  @Test
  void theUsageExplainsEveryOptionOnOneLineAndGivesTwoExamples() {
    String usage = LocalStackApplication.usage();
    for (String option :
        new String[] {
          "--scenario=NAME ",
          "--api-port=N ",
          "--dns-port=N ",
          "--grace-period=PT5M ",
          "--probe-interval=PT2S ",
          "--no-view ",
          "--no-sample ",
          "-h, --help "
        }) {
      assertThat(usage.lines().filter(l -> l.strip().startsWith(option)))
          .as(option)
          .singleElement()
          .satisfies(l -> assertThat(l.strip().length()).isGreaterThan(option.length() + 10));
    }
    assertThat(usage.lines().filter(l -> l.strip().startsWith("java -jar "))).hasSize(2);
    assertThat(usage).contains("--scenario=all").contains("cairn-local-stack.log");
    assertThat(usage.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
  }

  @Test
  void anUnknownOptionPointsAtHelp() {
    assertThatThrownBy(() -> LocalStackApplication.parse(new String[] {"--bogus"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option '--bogus'")
        .hasMessageContaining("--help");
  }

  @Test
  void helpPrintsTheUsageAndExitsZero() throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LocalStackApplication.class.getName(),
                "--help")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).startsWith("Usage: java").contains("--scenario=NAME").contains("Examples:");
  }

  @Test
  void theJarIsNamedAsItIsRun() {
    assertThat(LocalStackApplication.jarName()).endsWith(".jar");
  }
}
