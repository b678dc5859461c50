package dev.cairn.localstack;

import java.time.Instant;

/**
 * Converts {@link System#nanoTime()} readings to wall-clock microseconds, so times taken at the
 * mock API (nanoTime) can be compared with Kafka record timestamps (wall-clock milliseconds). The
 * offset is taken once; over a benchmark of minutes the drift between the two clocks is far below
 * the millisecond resolution of Kafka timestamps.
 */
final class WallClock {

  private static final long OFFSET_MICROS = offset();

  private WallClock() {}

  /** Wall-clock microseconds since the epoch of a {@link System#nanoTime()} reading. */
  static long micros(long nanoTime) {
    return nanoTime / 1000 + OFFSET_MICROS;
  }

  /** The {@link System#nanoTime()} reading of a wall-clock time in epoch milliseconds. */
  static long nanosOfEpochMillis(long epochMillis) {
    return (epochMillis * 1000 - OFFSET_MICROS) * 1000;
  }

  static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
  }

  private static long offset() {
    // The smallest bracket of several readings gives the tightest offset.
    long best = Long.MAX_VALUE;
    long offset = 0;
    for (int i = 0; i < 50; i++) {
      long before = System.nanoTime();
      long wall = nowMicros();
      long after = System.nanoTime();
      if (after - before < best) {
        best = after - before;
        offset = wall - (before + (after - before) / 2) / 1000;
      }
    }
    return offset;
  }
}
