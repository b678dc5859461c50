package dev.cairn.recordwriter.plan;

import java.util.Comparator;
import java.util.Objects;

/**
 * The identity of one DNSEndpoint object: its namespace and name.
 *
 * @param namespace the namespace, never blank
 * @param name the object name, never blank
 */
public record ObjectKey(String namespace, String name) implements Comparable<ObjectKey> {

  private static final Comparator<ObjectKey> ORDER =
      Comparator.comparing(ObjectKey::namespace).thenComparing(ObjectKey::name);

  public ObjectKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** A key. */
  public static ObjectKey of(String namespace, String name) {
    return new ObjectKey(namespace, name);
  }

  @Override
  public int compareTo(ObjectKey other) {
    return ORDER.compare(this, other);
  }

  /** {@code namespace/name}. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
