package dev.cairn.localstack;

import dev.cairn.commonmodel.Topics;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The embedded default: two clusters, {@code eu} and {@code us}, with one Kafka broker, in one JVM
 * ({@code java -jar local-stack/target/local-stack-*.jar}). It prints the addresses of the broker,
 * the mock Kubernetes APIs and the dns-responders, then a live view of the sample hosts as each
 * cluster answers them over DNS, until Ctrl-C.
 *
 * <p>Options: {@code --scenario=NAME} (failover, split-brain, grace, all: runs it, prints its
 * timeline and exits 0 when it passed, 1 when not), {@code --api-port=N} and {@code --dns-port=N}
 * (the first cluster's ports, the second's are one more; default 0: free ports), {@code
 * --grace-period=DURATION} (ISO-8601; default PT5M, and PT20S with a scenario), {@code
 * --probe-interval=DURATION} (default PT2S), {@code --no-sample}, {@code --no-view} (print events
 * only, as lines), {@code --help} ({@link #usage()}).
 */
public final class LocalStackApplication {

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  /** The grace period a scenario runs with unless {@code --grace-period} is given. */
  static final Duration SCENARIO_GRACE = Duration.ofSeconds(20);

  private LocalStackApplication() {}

  /** The parsed command line; {@code help} when {@code --help} asked for the usage. */
  record Command(LocalStack.Options options, String scenario, boolean view, boolean help) {}

  public static void main(String[] args) throws InterruptedException {
    Command command;
    try {
      command = parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("local-stack: " + e.getMessage());
      System.err.println("Try --help.");
      System.exit(2);
      return;
    }
    if (command.help()) {
      System.out.print(usage());
      System.exit(0);
      return;
    }
    PrintStream out = System.out;
    long started = System.nanoTime();
    boolean ansi =
        command.view()
            && command.scenario() == null
            && System.console() != null
            && !"dumb".equals(System.getenv("TERM"));
    String logFile = null;
    if (ansi || command.scenario() != null) {
      // The live view redraws the terminal, and a scenario's timeline is what its run is for: the
      // services log to a file meanwhile (a scenario's errors still show on the console).
      logFile = Path.of(System.getProperty("java.io.tmpdir"), "cairn-local-stack.log").toString();
      logToFile(logFile, command.scenario() != null);
      out.println("Starting the Cairn local stack (logs: " + logFile + ") ...");
    }
    LiveView[] view = new LiveView[1];
    Consumer<String> events =
        line -> {
          LiveView v = view[0];
          if (v != null) {
            v.event(line);
          } else {
            out.println(LocalTime.now().format(TIME) + " ** " + line);
          }
        };
    LocalStack stack = LocalStack.start(command.options().withDnsEndpointListener(events));
    long startMillis = (System.nanoTime() - started) / 1_000_000;
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable shutdown =
        () -> {
          if (view[0] != null) {
            view[0].close();
          }
          stack.close();
          stopped.countDown();
        };
    stopOnSignals(shutdown, stopped);
    Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "local-stack-shutdown"));
    String banner =
        banner(stack, startMillis) + (logFile == null ? "" : "Logs: " + logFile + "\n\n");
    out.print(banner);
    if (command.scenario() != null) {
      Scenarios scenarios =
          new Scenarios(
              stack,
              command.options().gracePeriod(),
              line -> out.println(LocalTime.now().format(TIME) + " " + line));
      List<Scenarios.Result> results = scenarios.run(command.scenario());
      out.println();
      results.forEach(
          r ->
              out.println(
                  "scenario "
                      + r.scenario()
                      + ": "
                      + (r.passed() ? "passed" : "FAILED: " + r.failure())));
      out.println("The services' full log: " + logFile);
      out.flush();
      shutdown.run();
      System.exit(results.stream().allMatch(Scenarios.Result::passed) ? 0 : 1);
      return;
    }
    if (command.view() && command.options().seedSample()) {
      view[0] =
          new LiveView(stack, out, ansi, SampleTopology.HOSTS, banner).start(Duration.ofSeconds(1));
    }
    stopped.await();
  }

  /**
   * Points the log ({@code logback.xml}) at {@code file} before its first line: everything goes
   * there, and with {@code errorsToConsole} errors show on the console too.
   */
  static void logToFile(String file, boolean errorsToConsole) {
    System.setProperty("cairn.log.file", file);
    System.setProperty("cairn.log.appender", "FILE");
    if (errorsToConsole) {
      System.setProperty("cairn.log.errors", "ERRORS");
    }
  }

  /**
   * Stops the stack in order on Ctrl-C (SIGINT) and SIGTERM, before the JVM's shutdown hooks run:
   * the embedded broker's test kit deletes its log directory in a shutdown hook of its own, which
   * would otherwise race the services still committing to it. A stop that takes longer than {@link
   * #STOP_TIMEOUT} halts the JVM.
   */
  @SuppressWarnings("restriction")
  private static void stopOnSignals(Runnable shutdown, CountDownLatch stopped) {
    sun.misc.SignalHandler handler =
        signal -> {
          Thread watchdog =
              new Thread(
                  () -> {
                    try {
                      if (!stopped.await(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                        System.err.println(
                            "local-stack: stopping took longer than " + STOP_TIMEOUT + "; halting");
                        Runtime.getRuntime().halt(1);
                      }
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  },
                  "local-stack-stop-watchdog");
          watchdog.setDaemon(true);
          watchdog.start();
          System.out.println("\nStopping the local stack...");
          shutdown.run();
          System.exit(0);
        };
    for (String name : List.of("INT", "TERM")) {
      try {
        sun.misc.Signal.handle(new sun.misc.Signal(name), handler);
      } catch (IllegalArgumentException e) {
        // The signal is not available on this platform: the shutdown hook still stops the stack.
      }
    }
  }

  /** How long an orderly stop may take before the JVM is halted. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  /** What {@code --help} prints: each option with one line, then the two most useful runs. */
  static String usage() {
    String jar = jarName();
    String log = Path.of(System.getProperty("java.io.tmpdir"), "cairn-local-stack.log").toString();
    return """
        Usage: java [-D<setting>=<value>...] -jar %1$s [options]

        Starts Cairn on this machine: one Kafka broker and two simulated clusters, eu and us, each
        with a mock Kubernetes API, the five services and a dns-responder, and shows a live view of
        the sample hosts as each cluster answers them over DNS, until Ctrl-C.

        Options:
          --scenario=NAME        run failover, split-brain, grace or all; exit 0 if it passed, else 1
          --api-port=N           the eu mock Kubernetes API's port, us gets N+1 (default: free ports)
          --dns-port=N           the eu dns-responder's port, us gets N+1 (default: free ports)
          --grace-period=PT5M    the record-writers' grace period (default PT5M, PT20S with a scenario)
          --probe-interval=PT2S  how often each prober asks the other cluster (default PT2S)
          --no-view              print DNSEndpoint changes and the services' log as lines, no table
          --no-sample            start without the sample hosts (so no live view and no scenario)
          -h, --help             print this help and exit

        A setting of docs/configuration.md given as a system property before -jar applies to both
        clusters, e.g. -Dresponder.weighted-answer=all-ordered.

        Examples:
          java -jar %1$s --api-port=28443 --dns-port=28053
              the live view on fixed ports; then, in another terminal:
              dig @127.0.0.1 -p 28053 +norec app.cloud.example.com
              kubectl --server http://127.0.0.1:28443 get gslbs,dnsendpoints -A
          java -jar %1$s --scenario=all
              fails a cluster over, cuts DNS between the clusters and waits out a grace period,
              printing the timeline; the services' log goes to %2$s
        """
        .formatted(jar, log);
  }

  /**
   * The file name of the jar this runs from ({@code
   * jar:nested:/…/local-stack-0.1.0.jar/!BOOT-INF/…} in the executable jar), or {@code
   * local-stack.jar}.
   */
  static String jarName() {
    var source = LocalStackApplication.class.getProtectionDomain().getCodeSource();
    String location = source == null ? "" : String.valueOf(source.getLocation());
    int end = location.indexOf(".jar");
    if (end < 0) {
      return "local-stack.jar";
    }
    String path = location.substring(0, end + ".jar".length());
    return path.substring(path.lastIndexOf('/') + 1);
  }

  static Command parse(String[] args) {
    LocalStack.Options options = LocalStack.Options.defaults();
    String scenario = null;
    boolean view = true;
    boolean graceGiven = false;
    for (String arg : args) {
      if (arg.equals("--help") || arg.equals("-h")) {
        return new Command(options, null, view, true);
      }
    }
    for (String arg : args) {
      if (arg.startsWith("--api-port=")) {
        options = options.withApiPort(port(arg));
      } else if (arg.startsWith("--dns-port=")) {
        options = options.withDnsPort(port(arg));
      } else if (arg.startsWith("--grace-period=")) {
        options = options.withGracePeriod(duration(arg));
        graceGiven = true;
      } else if (arg.startsWith("--probe-interval=")) {
        options = options.withProbeInterval(duration(arg));
      } else if (arg.startsWith("--scenario=")) {
        scenario = value(arg);
        if (!Scenarios.NAMES.contains(scenario)) {
          throw new IllegalArgumentException(
              "unknown scenario '" + scenario + "'; known: " + String.join(", ", Scenarios.NAMES));
        }
      } else if (arg.equals("--no-sample")) {
        options = options.withSample(false);
      } else if (arg.equals("--no-view")) {
        view = false;
      } else {
        throw new IllegalArgumentException(
            "unknown option '"
                + arg
                + "'; known: --scenario=NAME --api-port=N --dns-port=N --grace-period=PT5M"
                + " --probe-interval=PT2S --no-sample --no-view --help");
      }
    }
    if (scenario != null && !options.seedSample()) {
      throw new IllegalArgumentException("--scenario needs the sample topology (drop --no-sample)");
    }
    if (scenario != null && !graceGiven) {
      options = options.withGracePeriod(SCENARIO_GRACE);
    }
    return new Command(options, scenario, view, false);
  }

  private static String value(String arg) {
    return arg.substring(arg.indexOf('=') + 1);
  }

  private static Duration duration(String arg) {
    try {
      Duration d = Duration.parse(value(arg));
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("'" + arg + "' must be a positive duration");
      }
      return d;
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException(
          "'" + arg + "' is not an ISO-8601 duration such as PT20S or PT5M", e);
    }
  }

  private static int port(String arg) {
    try {
      int port = Integer.parseInt(value(arg));
      if (port < 0 || port > 65534) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + arg + "' does not give a port 0..65534", e);
    }
  }

  /** The addresses a user needs, with commands to try. */
  static String banner(LocalStack stack, long startMillis) {
    StringBuilder b = new StringBuilder();
    b.append('\n')
        .append("Cairn local stack is up (")
        .append(startMillis)
        .append(" ms): ")
        .append(stack.clusters().size())
        .append(" clusters, Kafka broker ")
        .append(stack.bootstrapServers())
        .append('\n');
    for (Cluster c : stack.clusters().values()) {
      b.append(
          String.format(
              "  %-3s API %s  DNS 127.0.0.1:%d  topics %s*  actuator",
              c.name(), c.apiUrl(), c.dnsAddress().getPort(), c.topics().prefix()));
      c.services()
          .keySet()
          .forEach(
              s ->
                  b.append(' ')
                      .append(s, 0, s.indexOf('-') < 0 ? s.length() : s.indexOf('-'))
                      .append(':')
                      .append(c.actuatorPort(s)));
      b.append('\n');
    }
    Cluster first = stack.clusters().values().iterator().next();
    b.append("Try:\n");
    b.append("  dig @127.0.0.1 -p ")
        .append(first.dnsAddress().getPort())
        .append(" +norec ")
        .append(SampleTopology.APP_HOST)
        .append('\n');
    b.append("  kcat -C -b ")
        .append(stack.bootstrapServers())
        .append(" -t ")
        .append(first.topics().name(Topics.DECISIONS))
        .append(" -e -K'\\t'\n");
    b.append("  kubectl --server ").append(first.apiUrl()).append(" get dnsendpoints,gslbs -A\n");
    b.append("  kubectl --server ").append(first.apiUrl()).append(" describe gslb app\n");
    b.append("Press Ctrl-C to stop.\n\n");
    return b.toString();
  }
}
