package dev.cairn.dnsresponder.answer;

import java.net.InetAddress;
import java.util.Optional;

/** Looks addresses up in a geo database (port; the MaxMind reader is the adapter). */
public interface GeoLocator {

  /** A locator that knows nothing: every lookup is empty. */
  GeoLocator NONE = (address, field) -> Optional.empty();

  /**
   * The value of a field for the network holding an address.
   *
   * @param address the address to look up
   * @param field a dotted path into the record, e.g. {@code datacenter} or {@code country.iso_code}
   * @return the value and the prefix length of the matching network, or empty when the address or
   *     the field is not in the database (or there is no database)
   */
  Optional<GeoMatch> locate(InetAddress address, String field);

  /**
   * A database hit.
   *
   * @param value the field's value as text
   * @param prefixLength the prefix length of the database network that matched
   */
  record GeoMatch(String value, int prefixLength) {}
}
