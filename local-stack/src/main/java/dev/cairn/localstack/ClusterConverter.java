package dev.cairn.localstack;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * {@code %cluster} in {@code logback.xml}: the simulated cluster ({@code eu}, {@code us}) whose
 * thread logs the line, or nothing for the stack's own threads (the broker, the live view). The
 * appenders of the local stack are synchronous, so the thread converting the event is the one that
 * logged it.
 */
public final class ClusterConverter extends ClassicConverter {

  @Override
  public String convert(ILoggingEvent event) {
    String cluster = ClusterThreads.current();
    return cluster == null ? "" : cluster;
  }
}
