package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * The real {@code kcat} client (Debian package {@code kcat}), reading Cairn's topics the way the
 * README tells users to: {@code kcat -C -b <addr> -t <topic> -e -K'\t'}.
 */
final class Kcat {

  /** One consumed record: key and value (or headers) as kcat printed them. */
  record Line(String key, String value) {}

  private final InteropTool tool;

  private Kcat(InteropTool tool) {
    this.tool = tool;
  }

  static Kcat findOrSkip() {
    return new Kcat(InteropTool.findOrSkip("kcat", "kcat"));
  }

  /** {@code kcat -C -b <servers> -t <topic> -e -q -K'\t'}: every record, key TAB value. */
  List<Line> consume(String servers, String topic) {
    return split(tool.run("-C", "-b", servers, "-t", topic, "-e", "-q", "-K\t"));
  }

  /** The key and headers of every record ({@code key TAB name=value,...}). */
  List<Line> headers(String servers, String topic) {
    return split(tool.run("-C", "-b", servers, "-t", topic, "-e", "-q", "-f", "%k\t%h\n"));
  }

  private static List<Line> split(List<String> raw) {
    List<Line> lines = new ArrayList<>();
    for (String line : raw) {
      int tab = line.indexOf('\t');
      assertThat(tab).as("kcat line has a key separator: %s", line).isGreaterThanOrEqualTo(0);
      lines.add(new Line(line.substring(0, tab), line.substring(tab + 1)));
    }
    return lines;
  }
}
