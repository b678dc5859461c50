package dev.cairn.healthprober.dns;

import dev.cairn.healthprober.probe.RecordType;
import java.util.Objects;
import org.xbill.DNS.Name;

/**
 * A query encoded once and sent many times: only the ID changes per send.
 *
 * @param name the question name
 * @param qname the question name as text, lower case, without the trailing dot
 * @param type the question type
 * @param wire the encoded message; bytes 0 and 1 (the ID) are replaced on every send
 */
public record EncodedQuery(Name name, String qname, RecordType type, byte[] wire) {

  public EncodedQuery {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(qname, "qname");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(wire, "wire");
  }

  /** A copy of the wire form with the given ID. */
  byte[] withId(int id) {
    byte[] copy = wire.clone();
    copy[0] = (byte) (id >>> 8);
    copy[1] = (byte) id;
    return copy;
  }

  @Override
  public String toString() {
    return qname + "/" + type;
  }
}
