package dev.cairn.commonmodel.validation;

import java.util.Objects;

/**
 * One thing wrong with an input, named precisely enough for a user to fix it.
 *
 * @param field the path of the offending field, e.g. {@code
 *     metadata.annotations[directdns.meisterlala.dev/ttl]} or {@code spec.hostnames[2]}
 * @param value the offending value as it was found (may be {@code null} when the value is missing)
 * @param reason why the value was rejected, in a short sentence without a trailing period
 */
public record Problem(String field, String value, String reason) {

  public Problem {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
  }

  /** A copy whose field path is prefixed, e.g. {@code spec.hostnames[0]} under {@code Gslb}. */
  public Problem under(String prefix) {
    return new Problem(prefix + "." + field, value, reason);
  }

  /**
   * True when both name the same field and value: two checks (the topology-watcher's and the
   * strategy-engine's) reporting one thing, whatever their reasons.
   */
  public boolean sameFieldAndValue(Problem other) {
    return field.equals(other.field) && Objects.equals(value, other.value);
  }

  @Override
  public String toString() {
    return field + "=" + (value == null ? "<missing>" : "'" + value + "'") + ": " + reason;
  }
}
