package dev.cairn.dnsresponder.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.geo.MaxMindGeoLocator;
import dev.cairn.dnsresponder.geo.MmdbWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real clients against the real listener: {@code dig} (Debian {@code dnsutils}) and {@code kdig}
 * (Debian {@code knot-dnsutils}). Each test skips with a message when its tool is missing, unless
 * {@code -Dcairn.interop.required=true}, which turns the skip into a failure.
 */
class ClientInteropIT {

  @TempDir static Path dir;

  private static RunningResponder responder;
  private static MaxMindGeoLocator geo;

  @BeforeAll
  static void start() throws IOException {
    Path db = dir.resolve("geo.mmdb");
    new MmdbWriter()
        .add("203.0.113.0/24", Map.of("datacenter", "eu"))
        .add("198.51.100.0/24", Map.of("datacenter", "us"))
        .add("192.0.2.0/28", Map.of("datacenter", "eu"))
        .add("192.0.2.16/28", Map.of("datacenter", "us"))
        .write(db);
    geo = new MaxMindGeoLocator(db, Duration.ofHours(1));
    responder = new RunningResponder(geo, null);
  }

  @AfterAll
  static void stop() {
    responder.close();
    geo.close();
  }

  /** The parsed header of a dig or kdig answer. */
  record Result(String status, List<String> flags, int answer, int authority, String output) {}

  private static final Pattern STATUS = Pattern.compile("status: (\\w+)");
  private static final Pattern FLAGS = Pattern.compile("(?i);; flags: ([a-z ]*);");
  private static final Pattern COUNTS = Pattern.compile("ANSWER: (\\d+)[,;] AUTHORITY: (\\d+)");

  private static void requireTool(String tool, String debianPackage) {
    boolean present =
        Files.isExecutable(Path.of("/usr/bin", tool)) || Files.isExecutable(Path.of("/bin", tool));
    if (!present && Boolean.getBoolean("cairn.interop.required")) {
      throw new AssertionError(tool + " is missing: apt-get install -y " + debianPackage);
    }
    Assumptions.assumeTrue(
        present, tool + " is missing, skipping (apt-get install -y " + debianPackage + ")");
  }

  private static Result run(String tool, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(tool);
    command.add("@127.0.0.1");
    command.add("-p");
    command.add(Integer.toString(responder.port()));
    boolean knot = tool.equals("kdig");
    command.add(knot ? "+timeout=3" : "+time=3");
    command.add(knot ? "+retry=0" : "+tries=1");
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish");
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    Matcher status = STATUS.matcher(output);
    Matcher flags = FLAGS.matcher(output);
    Matcher counts = COUNTS.matcher(output);
    assertThat(status.find() && flags.find() && counts.find())
        .as("parsable output of %s:%n%s", command, output)
        .isTrue();
    return new Result(
        status.group(1),
        List.of(flags.group(1).trim().split(" +")),
        Integer.parseInt(counts.group(1)),
        Integer.parseInt(counts.group(2)),
        output);
  }

  private static void checkBasics(String tool) throws Exception {
    Result a = run(tool, "app.cloud.example.com", "A", "+norec");
    assertThat(a.status()).isEqualTo("NOERROR");
    assertThat(a.flags()).contains("qr", "aa").doesNotContain("ra", "rd", "tc");
    assertThat(a.answer()).isEqualTo(2);
    assertThat(a.output()).contains("192.0.2.1", "192.0.2.2");

    Result rd = run(tool, "app.cloud.example.com", "A", "+rec");
    assertThat(rd.flags()).contains("qr", "aa", "rd").doesNotContain("ra");

    Result nx = run(tool, "nope.cloud.example.com", "A", "+norec");
    assertThat(nx.status()).isEqualTo("NXDOMAIN");
    assertThat(nx.flags()).contains("aa");
    assertThat(nx.answer()).isZero();
    assertThat(nx.authority()).isEqualTo(1);

    Result nodata = run(tool, "app.cloud.example.com", "AAAA", "+norec");
    assertThat(nodata.status()).isEqualTo("NOERROR");
    assertThat(nodata.answer()).isZero();
    assertThat(nodata.authority()).isEqualTo(1);
    assertThat(nodata.output()).doesNotContain("0.0.0.0");

    Result ent = run(tool, "app2.cloud.example.com", "A", "+norec");
    assertThat(ent.status()).isEqualTo("NOERROR");
    assertThat(ent.answer()).isZero();
    assertThat(ent.authority()).isEqualTo(1);

    Result refused = run(tool, "www.example.org", "A", "+norec");
    assertThat(refused.status()).isEqualTo("REFUSED");
    assertThat(refused.flags()).doesNotContain("aa");

    Result caseKept = run(tool, "ApP.CLOUD.example.com", "A", "+norec");
    assertThat(caseKept.answer()).isEqualTo(2);
    if (tool.equals("dig")) { // kdig lower-cases the name before sending it
      assertThat(caseKept.output()).contains("ApP.CLOUD.example.com.");
    }

    Result tcp = run(tool, "big.cloud.example.com", "A", "+norec", "+tcp");
    assertThat(tcp.flags()).doesNotContain("tc");
    assertThat(tcp.answer()).isEqualTo(30);

    Result truncated = run(tool, "big.cloud.example.com", "A", "+norec", "+ignore", "+bufsize=512");
    assertThat(truncated.flags()).contains("tc");
    assertThat(truncated.answer()).isZero();

    Result noEdns = run(tool, "big.cloud.example.com", "A", "+norec", "+ignore", "+noedns");
    assertThat(noEdns.flags()).contains("tc");

    Result bigEdns = run(tool, "big.cloud.example.com", "A", "+norec", "+bufsize=1232");
    assertThat(bigEdns.flags()).doesNotContain("tc");
    assertThat(bigEdns.answer()).isEqualTo(30);

    Result apexNs = run(tool, "cloud.example.com", "NS", "+norec");
    assertThat(apexNs.answer()).isEqualTo(2);
    assertThat(apexNs.output()).contains("192.0.2.53"); // glue in additional

    Result geoEu = run(tool, "geo.cloud.example.com", "A", "+norec", "+subnet=203.0.113.0/24");
    assertThat(geoEu.answer()).isEqualTo(1);
    assertThat(geoEu.output()).contains("192.0.2.5").doesNotContain("192.0.2.20");
    assertThat(geoEu.output()).contains("203.0.113.0/24/24");
    Result geoUs = run(tool, "geo.cloud.example.com", "A", "+norec", "+subnet=198.51.100.0/24");
    assertThat(geoUs.output()).contains("192.0.2.20").doesNotContain("192.0.2.5\t", "192.0.2.5\n");
  }

  @Test
  void digSeesAuthoritativeCorrectAnswers() throws Exception {
    requireTool("dig", "dnsutils");
    checkBasics("dig");
  }

  @Test
  void kdigSeesAuthoritativeCorrectAnswers() throws Exception {
    requireTool("kdig", "knot-dnsutils");
    checkBasics("kdig");
  }
}
