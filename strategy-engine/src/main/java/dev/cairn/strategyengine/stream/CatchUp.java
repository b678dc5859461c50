package dev.cairn.strategyengine.stream;

import java.time.Duration;
import java.util.Objects;

/**
 * How the engine batches decisions while it works through a backlog (a restart, a replay, a burst
 * it fell behind on). An input change marks the routes and Gslbs it affects; marks are decided
 * after each processing batch while the input is live, but while the task is catching up they are
 * collected until the backlog is worked off ({@code idle}) or {@code maxDelay} has passed, so that
 * a Gslb whose spec and peer answers arrive one after the other is decided once, not once per
 * input, and publishes one decision instead of a series of superseded ones.
 *
 * @param lag an input older than this (its record timestamp against the engine's clock) when it is
 *     processed means the task is catching up; with skewed producer clocks live input waits for
 *     {@code idle} at most
 * @param idle a task catching up that has processed no input (nor decided) for this long has worked
 *     off its backlog (longer than the pauses of a replay: a commit, a fetch, the same thread
 *     forwarding broadcast inputs)
 * @param maxDelay the longest a mark waits while the task is catching up
 */
public record CatchUp(Duration lag, Duration idle, Duration maxDelay) {

  /**
   * The defaults: 1 s lag, 200 ms idle, 2 s longest wait. The idle was 1 s while peer answers came
   * through a broadcast topic, whose copies paused a replay's input to the deciding task for
   * several hundred milliseconds (1.44 decisions per Gslb with 100 ms); since they are a global
   * store, restored before the tasks start (ADR 0004), GslbBench replays decide each Gslb once with
   * 100 ms (10k and 333k Gslbs, 1.00 decisions per Gslb), and 200 ms leaves room for a slow commit.
   */
  public static final CatchUp DEFAULTS =
      new CatchUp(Duration.ofSeconds(1), Duration.ofMillis(200), Duration.ofSeconds(2));

  public CatchUp {
    Objects.requireNonNull(lag, "lag");
    Objects.requireNonNull(idle, "idle");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (lag.isNegative() || idle.isNegative() || maxDelay.isNegative()) {
      throw new IllegalArgumentException("catch-up lag, idle and max-delay must not be negative");
    }
  }
}
