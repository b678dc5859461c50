package dev.cairn.healthprober.probe;

import java.util.Objects;

/**
 * One resource record of a reply, reduced to text.
 *
 * @param owner the owner name, lower case, without the trailing dot
 * @param type the record type
 * @param ttlSeconds the TTL
 * @param data the address for A and AAAA, the target name (lower case, no trailing dot) for CNAME
 *     and NS, empty otherwise
 */
public record ReplyRecord(String owner, RecordType type, long ttlSeconds, String data) {

  public ReplyRecord {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(type, "type");
    data = data == null ? "" : data;
  }
}
