package dev.cairn.localstack;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.decision.LocalTargetsName;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.kafka.StateTopicReader;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live view of the local stack: a compact table, refreshed every second, of each sample host,
 * and of every other host a cluster has decided records for (a Gslb or route applied with kubectl),
 * as each cluster's dns-responder answers it over real DNS, with the reason of the cluster's last
 * decision for the host (read from the cluster's decisions topic), followed by the latest events.
 * On a terminal it redraws in place; otherwise (a pipe, a log file) it prints the table only when
 * it changes. What a weighted record answers is sampled anew on every refresh, so the change check
 * compares each cell's addresses as a set, and a weighted record's as the targets it picks from
 * ({@link #changeKey}): the counts and the order of a sample change nothing.
 */
final class LiveView implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(LiveView.class);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");
  private static final int QUERIES_PER_CELL = 8;
  private static final int EVENTS = 10;
  private static final int WIDTH = 118;
  private static final int MAX_OTHER_HOSTS = 8;

  /** The narrowest and widest the columns get: they widen to their content up to the widest. */
  private static final int HOST_MIN = 26;

  private static final int HOST_MAX = 44;
  private static final int A_MIN = 34;
  private static final int A_MAX = 64;
  private static final int AAAA_MAX = 48;

  private final LocalStack stack;
  private final PrintStream out;
  private final boolean ansi;
  private final List<String> hosts;
  private final String header;
  private final Map<String, StateTopicReader<TargetDecision>> decisions = new LinkedHashMap<>();
  private final Deque<String> events = new ArrayDeque<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "local-stack-live-view");
            t.setDaemon(true);
            return t;
          });
  private String lastKey = "";
  private volatile int leftOut;

  LiveView(LocalStack stack, PrintStream out, boolean ansi, List<String> hosts, String header) {
    this.stack = stack;
    this.out = out;
    this.ansi = ansi;
    this.hosts = List.copyOf(hosts);
    this.header = header;
  }

  /** Starts reading the decisions and refreshing the table. */
  LiveView start(Duration refresh) {
    for (Cluster c : stack.clusters().values()) {
      decisions.put(
          c.name(),
          new StateTopicReader<>(
                  stack.bootstrapServers(),
                  Map.of(),
                  c.topics().name(Topics.DECISIONS),
                  TargetDecision.class,
                  null)
              .start());
    }
    timer.scheduleWithFixedDelay(this::refresh, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** Adds a line to the events shown under the table (and prints it at once without a terminal). */
  void event(String line) {
    String stamped = LocalTime.now().format(TIME) + " " + line;
    synchronized (events) {
      events.addLast(stamped);
      while (events.size() > EVENTS) {
        events.removeFirst();
      }
    }
    if (!ansi) {
      out.println(stamped);
    }
  }

  private void refresh() {
    try {
      show(rows(), leftOut);
    } catch (RuntimeException e) {
      log.atWarn().setCause(e).log("live view refresh failed; trying again");
    }
  }

  /**
   * Shows the rows: on a terminal the whole screen, every time; otherwise the table, when it
   * differs from the last one shown by more than what sampling varies ({@link #changeKey}).
   */
  void show(List<Row> rows, int moreHosts) {
    String table = render(rows);
    if (moreHosts > 0) {
      table +=
          "(+"
              + moreHosts
              + " more decided hosts: GET /api/v1/decisions on each cluster's strategy-engine)\n";
    }
    if (ansi) {
      StringBuilder screen = new StringBuilder("\033[H\033[2J").append(header).append('\n');
      screen.append(table);
      screen.append("\nLatest events:\n");
      synchronized (events) {
        events.forEach(e -> screen.append("  ").append(clip(e, WIDTH - 2)).append('\n'));
      }
      out.print(screen);
      out.flush();
      return;
    }
    String key = changeKey(rows) + moreHosts;
    if (!key.equals(lastKey)) {
      out.println(LocalTime.now().format(TIME) + " live view:");
      out.print(table);
      out.flush();
      lastKey = key;
    }
  }

  /** One host as every cluster answers it. */
  record Row(String host, Map<String, Cell> cells) {}

  /**
   * One cluster's answer for one host: the A answers aggregated over several queries (weighted
   * answers vary per query), the AAAA answer, and the reason of the cluster's decision; and for the
   * change check, the A and AAAA answers without what sampling varies ({@link #stable}).
   */
  record Cell(String a, String aaaa, String reason, String stableA, String stableAaaa) {
    /** A cell whose answers vary by nothing but what is shown. */
    Cell(String a, String aaaa, String reason) {
      this(a, aaaa, reason, a, aaaa);
    }
  }

  /**
   * The hosts to show: the sample's, in their order, then the other hosts the clusters have decided
   * records for, sorted, at most {@value #MAX_OTHER_HOSTS} (the {@code localtargets-} names left
   * out: they are the peers' business).
   *
   * @return the hosts, and how many other hosts were left out
   */
  static Hosts hostsToShow(List<String> sample, Iterable<TargetDecision> decisions) {
    TreeSet<String> others = new TreeSet<>();
    for (TargetDecision d : decisions) {
      for (DnsRecord r : d.records()) {
        String name = r.dnsName().toLowerCase(Locale.ROOT);
        if (!LocalTargetsName.is(name) && !sample.contains(name)) {
          others.add(name);
        }
      }
    }
    List<String> shown = new ArrayList<>(sample);
    int left = 0;
    for (String other : others) {
      if (shown.size() - sample.size() < MAX_OTHER_HOSTS) {
        shown.add(other);
      } else {
        left++;
      }
    }
    return new Hosts(shown, left);
  }

  /** The hosts shown, and how many decided hosts did not fit. */
  record Hosts(List<String> shown, int leftOut) {}

  /** Queries every responder for every host, now. */
  List<Row> rows() {
    List<TargetDecision> all = new ArrayList<>();
    decisions.values().forEach(r -> all.addAll(r.snapshot().values()));
    Hosts shown = hostsToShow(hosts, all);
    leftOut = shown.leftOut();
    List<Row> rows = new ArrayList<>();
    for (String host : shown.shown()) {
      Map<String, Cell> cells = new LinkedHashMap<>();
      for (Cluster c : stack.clusters().values()) {
        List<DnsLookup.Answer> a = new ArrayList<>();
        for (int i = 0; i < QUERIES_PER_CELL; i++) {
          a.add(DnsLookup.query(c.dnsAddress(), host, false));
        }
        DnsLookup.Answer aaaa = DnsLookup.query(c.dnsAddress(), host, true);
        cells.put(
            c.name(),
            new Cell(
                aggregate(a),
                aaaa.describe(),
                reason(c.name(), host),
                stable(a, weightedTargets(c.name(), host, "A")),
                stable(List.of(aaaa), weightedTargets(c.name(), host, "AAAA"))));
      }
      rows.add(new Row(host, cells));
    }
    return rows;
  }

  /** The A answers of several queries: one answer if they agree, else each answer with a count. */
  static String aggregate(List<DnsLookup.Answer> answers) {
    Map<String, Integer> seen = new TreeMap<>();
    for (DnsLookup.Answer answer : answers) {
      seen.merge(answer.describe(), 1, Integer::sum);
    }
    if (seen.size() == 1) {
      return seen.keySet().iterator().next();
    }
    List<String> parts = new ArrayList<>();
    seen.forEach((answer, n) -> parts.add(answer + " x" + n));
    return String.join(" ", parts);
  }

  /**
   * Answers as the change check sees them: every address (or response code) seen, as a sorted set,
   * so neither how often each came nor their order counts; and for a weighted record, whose answers
   * are a sample of its targets, the targets themselves, as long as every address seen is one of
   * them (an answer outside them, or a timeout, is a change).
   *
   * @param weightedTargets the targets of the cluster's decided record when it is weighted, else
   *     empty
   */
  static String stable(List<DnsLookup.Answer> answers, List<String> weightedTargets) {
    TreeSet<String> seen = new TreeSet<>();
    boolean onlyAddresses = true;
    for (DnsLookup.Answer answer : answers) {
      if (answer.rcode().equals("NOERROR") && !answer.addresses().isEmpty()) {
        seen.addAll(answer.addresses());
      } else {
        seen.add(answer.describe());
        onlyAddresses = false;
      }
    }
    if (onlyAddresses && !weightedTargets.isEmpty() && weightedTargets.containsAll(seen)) {
      return "weighted " + String.join(",", new TreeSet<>(weightedTargets));
    }
    return String.join(",", seen);
  }

  /**
   * The targets of the cluster's decided {@code type} record for {@code host} when it is weighted
   * (k8gb's {@code weight-*} labels: the responder answers a weighted sample of them), else empty.
   */
  private List<String> weightedTargets(String cluster, String host, String type) {
    StateTopicReader<TargetDecision> reader = decisions.get(cluster);
    if (reader == null) {
      return List.of();
    }
    for (TargetDecision d : reader.snapshot().values()) {
      for (DnsRecord r : d.records()) {
        if (r.dnsName().equalsIgnoreCase(host)
            && r.recordType().equals(type)
            && r.labels().keySet().stream().anyMatch(k -> k.startsWith("weight-"))) {
          return r.targets();
        }
      }
    }
    return List.of();
  }

  private String reason(String cluster, String host) {
    StateTopicReader<TargetDecision> reader = decisions.get(cluster);
    if (reader == null) {
      return "";
    }
    for (TargetDecision d : reader.snapshot().values()) {
      String prefix = host + ": ";
      for (String line : d.explanation().fallbacks()) {
        if (line.startsWith(prefix)) {
          return branchFirst(line.substring(prefix.length()));
        }
      }
      for (DnsRecord r : d.records()) {
        if (r.dnsName().equalsIgnoreCase(host)) {
          return d.explanation().summary();
        }
      }
    }
    return "no decision yet";
  }

  /**
   * A host's explanation line with its branch, which the engine appends ({@code rule → targets.
   * [BRANCH]}), moved to the front, so that a narrow terminal clips the rule rather than it.
   */
  static String branchFirst(String line) {
    int open = line.lastIndexOf(" [");
    if (open < 0 || !line.endsWith("]")) {
      return line;
    }
    return line.substring(open + 1) + " " + line.substring(0, open);
  }

  /**
   * The table as text: per host, a line per cluster with its answers and decision reason. The
   * columns widen to their content, up to a limit past which a cell is cut short with "…".
   */
  static String render(List<Row> rows) {
    int hostWidth = HOST_MIN;
    int aWidth = A_MIN;
    for (Row row : rows) {
      hostWidth = Math.max(hostWidth, Math.min(row.host().length(), HOST_MAX));
      for (Cell cell : row.cells().values()) {
        aWidth = Math.max(aWidth, Math.min(cell.a().length(), A_MAX));
      }
    }
    String line = "%-" + hostWidth + "s %-4s %-" + aWidth + "s %s%n";
    int reasonIndent = hostWidth + 1 + 4 + 1;
    StringBuilder b = new StringBuilder();
    b.append(String.format(line, "HOST", "DNS", "A", "AAAA"));
    for (Row row : rows) {
      boolean first = true;
      for (Map.Entry<String, Cell> e : row.cells().entrySet()) {
        Cell cell = e.getValue();
        b.append(
            String.format(
                line,
                first ? clip(row.host(), hostWidth) : "",
                e.getKey(),
                clip(cell.a(), aWidth),
                clip(cell.aaaa(), AAAA_MAX)));
        b.append(" ".repeat(reasonIndent))
            .append(clip("why: " + cell.reason(), Math.max(40, WIDTH - reasonIndent)))
            .append(System.lineSeparator());
        first = false;
      }
    }
    return b.toString();
  }

  /**
   * What the change check compares: the table with each cell's answers as {@link #stable} gives
   * them.
   */
  static String changeKey(List<Row> rows) {
    StringBuilder b = new StringBuilder();
    for (Row row : rows) {
      b.append(row.host()).append('\n');
      for (Map.Entry<String, Cell> e : row.cells().entrySet()) {
        Cell cell = e.getValue();
        b.append(e.getKey())
            .append('\t')
            .append(cell.stableA())
            .append('\t')
            .append(cell.stableAaaa())
            .append('\t')
            .append(cell.reason())
            .append('\n');
      }
    }
    return b.toString();
  }

  static String clip(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  @Override
  public void close() {
    timer.shutdownNow();
    decisions.values().forEach(StateTopicReader::close);
  }
}
