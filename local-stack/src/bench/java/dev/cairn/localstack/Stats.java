package dev.cairn.localstack;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/**
 * Nearest-rank percentiles of a set of durations in milliseconds.
 *
 * @param count how many values
 * @param p50 the median
 * @param p99 the 99th percentile
 * @param max the largest value
 */
record Stats(int count, double p50, double p99, double max) {

  static Stats of(Collection<Double> millis) {
    double[] sorted = millis.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    if (sorted.length == 0) {
      return new Stats(0, Double.NaN, Double.NaN, Double.NaN);
    }
    return new Stats(
        sorted.length, rank(sorted, 0.50), rank(sorted, 0.99), sorted[sorted.length - 1]);
  }

  private static double rank(double[] sorted, double q) {
    int index = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  /** {@code n=300 p50 12.3 ms p99 45.6 ms max 78.9 ms}, or {@code n=0}. */
  String format() {
    if (count == 0) {
      return "n=0";
    }
    return String.format(
        Locale.ROOT, "n=%d  p50 %.1f ms  p99 %.1f ms  max %.1f ms", count, p50, p99, max);
  }
}
