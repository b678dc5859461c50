package dev.cairn.localstack;

import dev.cairn.commonmodel.TopicSettings;
import dev.cairn.commonmodel.Topics;
import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded default: {@code ./mvnw -q -pl local-stack spring-boot:run} (after an install) starts
 * a Kafka broker, a mock Kubernetes API seeded with a sample topology, and Cairn's services in one
 * JVM, prints every DNSEndpoint as it is written, and runs until Ctrl-C.
 *
 * <p>The broker listens on a free port (the embedded KRaft test kit picks it); the mock API on
 * {@code --api-port=N} (default 0: a free port). Both addresses are printed at start. Other
 * options: {@code --grace-period=DURATION} (default PT5M, ISO-8601), {@code --no-sample}.
 */
public final class LocalStackApplication {

  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

  private LocalStackApplication() {}

  public static void main(String[] args) throws InterruptedException {
    LocalStack.Options options = parse(args);
    PrintStream out = System.out;
    long started = System.nanoTime();
    LocalStack stack =
        LocalStack.start(
            options.withDnsEndpointListener(
                line -> out.println(LocalTime.now().format(TIME) + " ** " + line)));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stack.close();
                  stopped.countDown();
                },
                "local-stack-shutdown"));
    printBanner(out, stack, (System.nanoTime() - started) / 1_000_000);
    stopped.await();
  }

  static LocalStack.Options parse(String[] args) {
    LocalStack.Options options = LocalStack.Options.defaults();
    for (String arg : args) {
      if (arg.startsWith("--api-port=")) {
        options = options.withApiPort(port(arg));
      } else if (arg.startsWith("--grace-period=")) {
        options = options.withGracePeriod(Duration.parse(value(arg)));
      } else if (arg.equals("--no-sample")) {
        options = options.withSample(false);
      } else {
        throw new IllegalArgumentException(
            "unknown option '" + arg + "'; known: --api-port=N --grace-period=PT5M --no-sample");
      }
    }
    return options;
  }

  private static String value(String arg) {
    return arg.substring(arg.indexOf('=') + 1);
  }

  private static int port(String arg) {
    try {
      int port = Integer.parseInt(value(arg));
      if (port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + arg + "' does not give a port 0..65535", e);
    }
  }

  private static void printBanner(PrintStream out, LocalStack stack, long startMillis) {
    TopicSettings topics = TopicSettings.defaults();
    out.println();
    out.println("Cairn local stack is up (" + startMillis + " ms).");
    out.println("  Kafka broker:   " + stack.bootstrapServers());
    out.println("  Kubernetes API: " + stack.apiUrl());
    stack
        .services()
        .forEach(
            (name, ctx) ->
                out.println(
                    "  "
                        + String.format("%-16s", name + ":")
                        + "http://127.0.0.1:"
                        + ctx.getEnvironment().getProperty("local.server.port")
                        + "/actuator/health"));
    out.println();
    out.println("Try:");
    out.println("  kcat -b " + stack.bootstrapServers() + " -L");
    out.println(
        "  kcat -C -b "
            + stack.bootstrapServers()
            + " -t "
            + topics.name(Topics.DECISIONS)
            + " -e -K'\\t'");
    out.println("  kubectl --server " + stack.apiUrl() + " get dnsendpoints -A");
    out.println("Press Ctrl-C to stop. DNSEndpoint changes are printed below with '**'.");
    out.println();
  }
}
