package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.Objects;

/**
 * One publishable DNS target: an IP literal in canonical form (A or AAAA) or a normalised host name
 * (CNAME).
 *
 * @param value the canonical text
 * @param type the record type it is published in
 */
public record Target(String value, RecordType type) implements Comparable<Target> {

  public Target {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(type, "type");
  }

  /** The target of an IP literal. */
  public static Target of(IpLiteral ip) {
    return new Target(
        ip.text(), ip.family() == IpLiteral.Family.IPV4 ? RecordType.A : RecordType.AAAA);
  }

  /** The CNAME target of an already normalised host name. */
  public static Target host(String normalisedName) {
    return new Target(normalisedName, RecordType.CNAME);
  }

  /** Orders by record type (A, AAAA, CNAME), then by value as a string. */
  @Override
  public int compareTo(Target other) {
    int byType = type.compareTo(other.type);
    return byType != 0 ? byType : value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return type + " " + value;
  }
}
