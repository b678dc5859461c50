package dev.cairn.localstack;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The demonstration scenarios of the local stack. Each one changes the sample topology or the
 * network between the clusters and waits for the answers of the clusters' dns-responders (over real
 * DNS) to follow, printing a timeline with the measured times. {@code --scenario NAME} runs one
 * from the command line; the system tests run the same code and assert on the same answers.
 *
 * <ul>
 *   <li>{@code failover}: the primary's endpoints of the failover Gslb become not ready; every
 *       cluster answers with the secondary within seconds, and with the primary again on recovery.
 *   <li>{@code split-brain}: the primary's DNS goes silent for the secondary for less than the
 *       split-brain threshold (no failover), then for longer (failover), then comes back.
 *   <li>{@code grace}: the plain route's endpoint disappears and comes back inside the record-
 *       writer's grace period (the record is kept), then stays away (the record is deleted).
 * </ul>
 */
final class Scenarios {

  /** The scenario names, as given to {@code --scenario}. */
  static final List<String> NAMES = List.of("failover", "split-brain", "grace", "all");

  private static final Duration POLL = Duration.ofMillis(100);

  private final LocalStack stack;
  private final Duration gracePeriod;
  private final Consumer<String> out;

  /**
   * @param stack a running stack with the sample topology and at least two clusters
   * @param gracePeriod the record-writers' grace period the stack was started with
   * @param out told every timeline line as it happens
   */
  Scenarios(LocalStack stack, Duration gracePeriod, Consumer<String> out) {
    if (stack.clusters().size() < 2) {
      throw new IllegalArgumentException("the scenarios need two clusters");
    }
    this.stack = stack;
    this.gracePeriod = gracePeriod;
    this.out = out;
  }

  /** A scenario's outcome: its timeline, and the first expectation that failed if any. */
  record Result(String scenario, List<String> timeline, String failure) {
    boolean passed() {
      return failure == null;
    }
  }

  /** Raised when an expected answer does not come, or an answer changes when it must not. */
  static final class ScenarioFailure extends RuntimeException {
    ScenarioFailure(String message) {
      super(message);
    }
  }

  /** Runs a scenario by name ({@code all} runs every one in turn). */
  List<Result> run(String name) {
    return switch (name) {
      case "failover" -> List.of(failover());
      case "split-brain" -> List.of(splitBrain());
      case "grace" -> List.of(grace());
      case "all" -> List.of(failover(), splitBrain(), grace());
      default ->
          throw new IllegalArgumentException(
              "unknown scenario '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }

  private Cluster primary() {
    return stack.clusters().values().iterator().next();
  }

  private Cluster secondary() {
    return new ArrayList<>(stack.clusters().values()).get(1);
  }

  // ----------------------------------------------------------------------------- scenarios

  /** The primary's endpoints become not ready, then ready again. */
  Result failover() {
    Timeline t = new Timeline("failover");
    Cluster eu = primary();
    Cluster us = secondary();
    String host = SampleTopology.APP_HOST;
    String euTarget = eu.site().appIpv4();
    String usTarget = us.site().appIpv4();
    try {
      for (Cluster c : stack.clusters().values()) {
        t.await(c, host, equalTo(euTarget), Duration.ofSeconds(60), "answers the primary");
      }
      t.mark();
      t.log(eu.name() + ": endpoints of Service web set not ready");
      setReady(eu.client(), "web", "web-1", false);
      for (Cluster c : stack.clusters().values()) {
        t.await(c, host, equalTo(usTarget), Duration.ofSeconds(30), "fails over to " + us.name());
      }
      t.mark();
      t.log(eu.name() + ": endpoints of Service web ready again");
      setReady(eu.client(), "web", "web-1", true);
      for (Cluster c : stack.clusters().values()) {
        t.await(c, host, equalTo(euTarget), Duration.ofSeconds(30), "back to " + eu.name());
      }
      return t.passed();
    } catch (ScenarioFailure e) {
      setReady(eu.client(), "web", "web-1", true);
      return t.failed(e);
    }
  }

  /**
   * The primary's DNS goes silent for the secondary, shorter and then longer than the threshold.
   */
  Result splitBrain() {
    Timeline t = new Timeline("split-brain");
    Cluster eu = primary();
    Cluster us = secondary();
    String host = SampleTopology.APP_HOST;
    String euTarget = eu.site().appIpv4();
    String usTarget = us.site().appIpv4();
    Duration threshold = Duration.ofSeconds(SampleTopology.SPLIT_BRAIN_SECONDS);
    Duration shortSilence = threshold.dividedBy(2);
    try {
      t.await(us, host, equalTo(euTarget), Duration.ofSeconds(60), "answers the primary");
      t.mark();
      t.log(
          eu.name()
              + " goes silent for "
              + us.name()
              + " (black hole) for "
              + seconds(shortSilence)
              + ", less than the split-brain threshold "
              + seconds(threshold));
      eu.setSilent(true);
      t.hold(
          us,
          host,
          equalTo(euTarget),
          shortSilence,
          "keeps trusting " + eu.name() + "'s last answer");
      eu.setSilent(false);
      t.log(eu.name() + " answers again");
      // Let the secondary's prober hear the primary again before the next silence.
      t.hold(us, host, equalTo(euTarget), Duration.ofSeconds(4), "still answers the primary");
      t.mark();
      t.log(eu.name() + " goes silent for " + us.name() + " and stays silent");
      eu.setSilent(true);
      t.await(
          us,
          host,
          equalTo(usTarget),
          threshold.plus(Duration.ofSeconds(30)),
          "fails over after the threshold");
      t.await(
          eu, host, equalTo(euTarget), Duration.ofSeconds(5), "(the primary) still answers itself");
      t.mark();
      eu.setSilent(false);
      t.log(eu.name() + " answers again");
      t.await(us, host, equalTo(euTarget), Duration.ofSeconds(30), "back to " + eu.name());
      return t.passed();
    } catch (ScenarioFailure e) {
      eu.setSilent(false);
      return t.failed(e);
    }
  }

  /** The plain route's endpoint disappears briefly (kept), then for good (deleted). */
  Result grace() {
    Timeline t = new Timeline("grace");
    Cluster eu = primary();
    String host = SampleTopology.BLOG_HOST;
    String target = eu.site().shopIpv4();
    KubernetesClient client = eu.client();
    Duration away = gracePeriod.dividedBy(2);
    EndpointSlice slice = slice(client, "blog-1");
    try {
      t.await(eu, host, equalTo(target), Duration.ofSeconds(60), "answers the ingress node");
      t.mark();
      t.log(
          eu.name()
              + ": EndpointSlice blog-1 deleted for "
              + seconds(away)
              + " (grace period "
              + seconds(gracePeriod)
              + ")");
      deleteSlice(client, "blog-1");
      t.hold(eu, host, equalTo(target), away, "keeps the record inside the grace period");
      restoreSlice(client, slice);
      t.log(eu.name() + ": EndpointSlice blog-1 back");
      t.hold(eu, host, equalTo(target), Duration.ofSeconds(3), "still answers");
      t.mark();
      t.log(eu.name() + ": EndpointSlice blog-1 deleted for good");
      deleteSlice(client, "blog-1");
      t.await(
          eu,
          host,
          equalTo("NXDOMAIN"),
          gracePeriod.plus(Duration.ofSeconds(30)),
          "deletes the record after the grace period");
      t.mark();
      restoreSlice(client, slice);
      t.log(eu.name() + ": EndpointSlice blog-1 restored");
      t.await(eu, host, equalTo(target), Duration.ofSeconds(30), "answers again");
      return t.passed();
    } catch (ScenarioFailure e) {
      restoreSlice(client, slice);
      return t.failed(e);
    }
  }

  // ----------------------------------------------------------------------------- topology changes

  /** Sets the readiness of every endpoint of an EndpointSlice. */
  static void setReady(KubernetesClient client, String service, String slice, boolean ready) {
    client
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace(SampleTopology.NAMESPACE)
        .withName(slice)
        .edit(
            s -> {
              s.getEndpoints()
                  .forEach(
                      e -> {
                        e.getConditions().setReady(ready);
                        e.getConditions().setServing(ready);
                      });
              return s;
            });
  }

  private static EndpointSlice slice(KubernetesClient client, String name) {
    EndpointSlice s =
        client
            .discovery()
            .v1()
            .endpointSlices()
            .inNamespace(SampleTopology.NAMESPACE)
            .withName(name)
            .get();
    if (s == null) {
      throw new IllegalStateException("the sample EndpointSlice " + name + " does not exist");
    }
    return s;
  }

  private static void deleteSlice(KubernetesClient client, String name) {
    client
        .discovery()
        .v1()
        .endpointSlices()
        .inNamespace(SampleTopology.NAMESPACE)
        .withName(name)
        .delete();
  }

  private static void restoreSlice(KubernetesClient client, EndpointSlice original) {
    EndpointSlice copy =
        new io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder(original)
            .editMetadata()
            .withResourceVersion(null)
            .withUid(null)
            .withCreationTimestamp(null)
            .endMetadata()
            .build();
    client.discovery().v1().endpointSlices().resource(copy).createOr(r -> r.update());
  }

  private static Predicate<String> equalTo(String expected) {
    return new Predicate<>() {
      @Override
      public boolean test(String answer) {
        return answer.equals(expected);
      }

      @Override
      public String toString() {
        return expected;
      }
    };
  }

  private static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  // ----------------------------------------------------------------------------- timeline

  /** Times measured from the last {@link #mark()}, printed as they happen. */
  private final class Timeline {
    private final String scenario;
    private final List<String> lines = new ArrayList<>();
    private final long start = System.nanoTime();
    private long mark = start;

    Timeline(String scenario) {
      this.scenario = scenario;
      log("scenario " + scenario + " starts");
    }

    void mark() {
      mark = System.nanoTime();
    }

    void log(String text) {
      String line =
          String.format(
              Locale.ROOT, "[%s] %7.2f s  %s", scenario, (System.nanoTime() - start) / 1e9, text);
      lines.add(line);
      out.accept(line);
    }

    /** Waits until the cluster's A answer for the host matches, and logs how long it took. */
    void await(Cluster c, String host, Predicate<String> expected, Duration timeout, String what) {
      long deadline = System.nanoTime() + timeout.toNanos();
      String answer;
      while (true) {
        answer = a(c, host);
        if (expected.test(answer)) {
          log(
              String.format(
                  Locale.ROOT,
                  "%s %s: %s (answer %s, after %.2f s)",
                  c.name(),
                  host,
                  what,
                  answer,
                  (System.nanoTime() - mark) / 1e9));
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new ScenarioFailure(
              c.name()
                  + " "
                  + host
                  + ": expected "
                  + expected
                  + " ("
                  + what
                  + ") within "
                  + seconds(timeout)
                  + ", last answer "
                  + answer);
        }
        pause(POLL);
      }
    }

    /** Checks that the cluster's A answer stays as expected for the whole duration. */
    void hold(Cluster c, String host, Predicate<String> expected, Duration duration, String what) {
      long end = System.nanoTime() + duration.toNanos();
      int samples = 0;
      while (System.nanoTime() < end) {
        String answer = a(c, host);
        samples++;
        if (!expected.test(answer)) {
          throw new ScenarioFailure(
              String.format(
                  Locale.ROOT,
                  "%s %s: expected %s throughout (%s), but answered %s after %.2f s",
                  c.name(),
                  host,
                  expected,
                  what,
                  answer,
                  (System.nanoTime() - mark) / 1e9));
        }
        pause(POLL);
      }
      log(
          String.format(
              Locale.ROOT,
              "%s %s: %s (answer %s in all %d queries over %s)",
              c.name(),
              host,
              what,
              expected,
              samples,
              seconds(duration)));
    }

    Result passed() {
      log("scenario " + scenario + " passed");
      return new Result(scenario, List.copyOf(lines), null);
    }

    Result failed(ScenarioFailure e) {
      log("scenario " + scenario + " FAILED: " + e.getMessage());
      return new Result(scenario, List.copyOf(lines), e.getMessage());
    }
  }

  private static String a(Cluster c, String host) {
    return DnsLookup.query(c.dnsAddress(), host, false).describe();
  }

  private static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted");
    }
  }
}
