package dev.cairn.localstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time of every thread of this JVM, the JVM's own (GC, JIT compilers) included, read from
 * {@code /proc/self/task/<tid>/stat} (Linux; elsewhere a snapshot is empty). The bench's stack is
 * one JVM, so two snapshots say where its CPU went between them, by thread kind: the thread name
 * as the kernel keeps it (its first 15 characters) with digits folded to {@code N}, as {@code
 * benchmarks/thread-cpu.sh window} prints it from outside.
 */
final class ThreadCpu {

  /** Clock ticks per second of {@code utime} and {@code stime} (USER_HZ: 100 on Linux). */
  private static final double TICKS = 100.0;

  private record Task(String name, long ticks) {}

  private final long nanos;
  private final Map<String, Task> threads;

  private ThreadCpu(long nanos, Map<String, Task> threads) {
    this.nanos = nanos;
    this.threads = threads;
  }

  /** The CPU time of every thread now. */
  static ThreadCpu snapshot() {
    Map<String, Task> threads = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path task : tasks) {
        try {
          String stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
          // "tid (comm) state ...": comm may hold spaces and parentheses; utime and stime are
          // the 12th and 13th fields after the last ')'.
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          String[] fields = stat.substring(close + 2).split(" ");
          threads.put(
              task.getFileName().toString(),
              new Task(
                  stat.substring(open + 1, close),
                  Long.parseLong(fields[11]) + Long.parseLong(fields[12])));
        } catch (IOException | RuntimeException e) {
          // the thread ended between the listing and the read
        }
      }
    } catch (IOException e) {
      // not Linux: no per-thread figures
    }
    return new ThreadCpu(System.nanoTime(), threads);
  }

  /**
   * The CPU used since {@code before}, by thread kind, the largest first: a line with the window
   * and the cores used, then one per kind with at least 1 % of a core, at most {@code top}.
   */
  List<String> since(ThreadCpu before, int top) {
    Map<String, Long> byKind = new HashMap<>();
    long total = 0;
    for (Map.Entry<String, Task> e : threads.entrySet()) {
      Task earlier = before.threads.get(e.getKey());
      long used = e.getValue().ticks() - (earlier == null ? 0 : earlier.ticks());
      byKind.merge(e.getValue().name().replaceAll("[0-9]+", "N"), used, Long::sum);
      total += used;
    }
    double seconds = (nanos - before.nanos) / 1e9;
    List<String> lines = new ArrayList<>();
    lines.add(String.format("%.1f s, %.2f cores", seconds, total / TICKS / seconds));
    byKind.entrySet().stream()
        .filter(e -> e.getValue() / TICKS / seconds >= 0.01)
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(top)
        .forEach(
            e ->
                lines.add(
                    String.format(
                        "%-16s %6.2f s  %5.1f %% of a core",
                        e.getKey(), e.getValue() / TICKS, 100 * e.getValue() / TICKS / seconds)));
    return lines;
  }
}
