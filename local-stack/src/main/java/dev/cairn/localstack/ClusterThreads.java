package dev.cairn.localstack;

import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which simulated cluster a thread works for, so that every log line of the two-cluster stack can
 * say {@code eu} or {@code us} ({@link ClusterConverter}, {@code %cluster} in {@code logback.xml}).
 *
 * <p>Each cluster has a {@link ThreadGroup} of its own, and everything of the cluster starts and
 * stops on a thread of that group: its mock API, its services' contexts. A new thread joins the
 * group of the thread that creates it unless told otherwise, which none of the libraries do
 * (Kafka's and Kafka Streams' threads, Tomcat's, Netty's and Vert.x's, fabric8's informers,
 * Spring's schedulers), so their threads carry the cluster too, where an MDC or a thread-name
 * prefix would not reach them. A thread of a pool shared by the whole JVM (the common fork-join
 * pool) carries the cluster of whoever made the pool create it, and the broker's threads none.
 */
final class ClusterThreads {

  private ClusterThreads() {}

  /** The thread group of one cluster. */
  static final class Group extends ThreadGroup {
    private final String cluster;
    private final AtomicInteger threads = new AtomicInteger();

    Group(String cluster) {
      super("cluster-" + cluster);
      this.cluster = cluster;
    }

    String cluster() {
      return cluster;
    }

    /** Makes threads in this group, named {@code <cluster>-<role>-<n>}. */
    ThreadFactory factory(String role) {
      return r -> new Thread(this, r, cluster + "-" + role + "-" + threads.incrementAndGet());
    }

    /**
     * Runs {@code task} on a new thread of this group and returns its result: whatever the task
     * starts belongs to the cluster.
     */
    <T> T call(String role, Callable<T> task) {
      Object[] result = new Object[1];
      Throwable[] failure = new Throwable[1];
      Thread t =
          factory(role)
              .newThread(
                  () -> {
                    try {
                      result[0] = task.call();
                    } catch (Throwable e) {
                      failure[0] = e;
                    }
                  });
      t.start();
      boolean interrupted = false;
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          // The task is not interruptible from here: wait for it, then keep the interrupt.
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (failure[0] instanceof RuntimeException e) {
        throw e;
      }
      if (failure[0] instanceof Error e) {
        throw e;
      }
      if (failure[0] != null) {
        throw new IllegalStateException(failure[0]);
      }
      @SuppressWarnings("unchecked")
      T value = (T) result[0];
      return value;
    }

    /** {@link #call} for a task without a result. */
    void run(String role, Runnable task) {
      call(
          role,
          () -> {
            task.run();
            return null;
          });
    }
  }

  /** The cluster the given thread works for, or {@code null}. */
  static String clusterOf(Thread thread) {
    for (ThreadGroup g = thread.getThreadGroup(); g != null; g = g.getParent()) {
      if (g instanceof Group group) {
        return group.cluster();
      }
    }
    return null;
  }

  /** The cluster the current thread works for, or {@code null}. */
  static String current() {
    return clusterOf(Thread.currentThread());
  }
}
