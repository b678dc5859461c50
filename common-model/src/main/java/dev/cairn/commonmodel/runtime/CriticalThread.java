package dev.cairn.commonmodel.runtime;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;

/**
 * A daemon thread whose work nothing else would take over: a service's loop that reads, writes or
 * serves. Its body catches and logs what one unit of work throws and goes on; what escapes the body
 * (an Error, a bug) ends the thread, and is logged at ERROR and kept as {@link #failure()}, so that
 * the service's liveness can report it and the process is restarted instead of staying up, idle and
 * healthy by every probe.
 */
public final class CriticalThread {

  private final Thread thread;
  private final AtomicReference<String> failure = new AtomicReference<>();

  /**
   * @param name the thread's name
   * @param body the loop
   * @param log where the thread's end is logged
   * @param stops what stops working when it ends, for the log ("no DNS answer is read any more")
   */
  public CriticalThread(String name, Runnable body, Logger log, String stops) {
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(log, "log");
    this.thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Throwable t) {
                failure.set(t.toString());
                log.atError()
                    .setCause(t)
                    .addKeyValue("thread", name)
                    .log("thread {} stopped on an unexpected error: {}", name, stops);
              }
            },
            name);
    thread.setDaemon(true);
  }

  /** Starts the thread. */
  public CriticalThread start() {
    thread.start();
    return this;
  }

  /** The thread, to join or interrupt it. */
  public Thread thread() {
    return thread;
  }

  /** The thread's name. */
  public String name() {
    return thread.getName();
  }

  /** True while the thread runs. */
  public boolean isAlive() {
    return thread.isAlive();
  }

  /** What ended the thread unexpectedly, or {@code null} while it runs or after a normal end. */
  public String failure() {
    return failure.get();
  }
}
