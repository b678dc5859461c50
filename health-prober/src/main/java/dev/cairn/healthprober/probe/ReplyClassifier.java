package dev.cairn.healthprober.probe;

import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a reply into a {@link QueryResult}: the status, and the addresses a careful resolver would
 * take from it.
 *
 * <ul>
 *   <li>Only records owned by the query name, or by a CNAME target reached from it inside the
 *       answer section, are read; records for other names are ignored.
 *   <li>A CNAME is followed (at most {@value #MAX_CNAME_DEPTH} deep, never in a loop) only when its
 *       target lies inside the bailiwick; nothing is ever queried to follow one.
 *   <li>At most {@code maxRecords} address records are taken.
 *   <li>NOERROR with no usable address is NODATA, except a referral to an address query (NS but no
 *       SOA in the authority section, nothing in the answer), which means the server does not serve
 *       the name: ERROR. (For an NS query the parent's referral is the answer sought.)
 * </ul>
 *
 * Pure.
 */
public final class ReplyClassifier {

  /** The longest CNAME chain followed inside one answer. */
  public static final int MAX_CNAME_DEPTH = 8;

  private ReplyClassifier() {}

  /**
   * Classifies a reply.
   *
   * @param qname the query name (any case, trailing dot optional)
   * @param qtype {@link RecordType#A} or {@link RecordType#AAAA}; for other types an answer with
   *     records of the type is OK without addresses (the caller reads the reply itself)
   * @param reply the reply
   * @param bailiwick the zone CNAME targets must lie in; empty means any name (a recursive resolver
   *     that already followed the chain)
   * @param maxRecords the most address records taken
   */
  public static QueryResult classify(
      String qname, RecordType qtype, DnsReply reply, String bailiwick, int maxRecords) {
    switch (reply.rcode()) {
      case DnsReply.NOERROR -> {
        return answer(qname, qtype, reply, bailiwick, maxRecords);
      }
      case DnsReply.NXDOMAIN -> {
        return new QueryResult(
            ProbeStatus.NXDOMAIN, List.of(), reply.negativeTtlSeconds(), false, "");
      }
      case DnsReply.SERVFAIL -> {
        return QueryResult.of(ProbeStatus.SERVFAIL, "");
      }
      case DnsReply.REFUSED -> {
        return QueryResult.of(ProbeStatus.REFUSED, "");
      }
      default -> {
        return QueryResult.of(ProbeStatus.ERROR, "response code " + reply.rcode());
      }
    }
  }

  private static QueryResult answer(
      String qname, RecordType qtype, DnsReply reply, String bailiwick, int maxRecords) {
    String target = Hostnames.normalise(qname);
    String zone = bailiwick == null ? "" : Hostnames.normalise(bailiwick);
    Set<String> visited = new HashSet<>();
    long minTtl = Long.MAX_VALUE;
    String detail = "";
    for (int depth = 0; depth <= MAX_CNAME_DEPTH; depth++) {
      visited.add(target);
      List<ReplyRecord> records = owned(reply.answers(), target, qtype);
      if (!records.isEmpty() && qtype != RecordType.A && qtype != RecordType.AAAA) {
        long ttl = minTtl;
        for (ReplyRecord r : records) {
          ttl = Math.min(ttl, r.ttlSeconds());
        }
        return new QueryResult(
            ProbeStatus.OK, List.of(), ttl, false, ""); // e.g. NS: read the reply
      }
      if (!records.isEmpty()) {
        return addresses(qtype, records, minTtl, maxRecords);
      }
      Optional<ReplyRecord> cname =
          owned(reply.answers(), target, RecordType.CNAME).stream().findFirst();
      if (cname.isEmpty()) {
        break;
      }
      String next = Hostnames.normalise(cname.get().data());
      if (!zone.isEmpty() && !Hostnames.isInZone(next, zone)) {
        detail = "CNAME to " + next + " leaves " + zone + "; not followed";
        break;
      }
      if (visited.contains(next)) {
        detail = "CNAME loop at " + next;
        break;
      }
      if (depth == MAX_CNAME_DEPTH) {
        detail = "CNAME chain longer than " + MAX_CNAME_DEPTH;
        break;
      }
      minTtl = Math.min(minTtl, cname.get().ttlSeconds());
      target = next;
    }
    boolean addressQuery = qtype == RecordType.A || qtype == RecordType.AAAA;
    if (addressQuery && reply.answers().isEmpty() && isReferral(reply)) {
      return QueryResult.of(ProbeStatus.ERROR, "referral: the server does not serve this name");
    }
    return new QueryResult(
        ProbeStatus.NODATA, List.of(), reply.negativeTtlSeconds(), false, detail);
  }

  private static QueryResult addresses(
      RecordType qtype, List<ReplyRecord> records, long chainTtl, int maxRecords) {
    LinkedHashSet<IpLiteral> out = new LinkedHashSet<>();
    long minTtl = chainTtl;
    int taken = 0;
    boolean capped = false;
    int invalid = 0;
    for (ReplyRecord r : records) {
      if (taken >= maxRecords) {
        capped = true;
        break;
      }
      taken++;
      Optional<IpLiteral> ip = IpLiteral.parse(r.data());
      // An AAAA record may hold an IPv4-mapped address, which IpLiteral maps to IPv4 on purpose.
      boolean familyOk =
          ip.isPresent()
              && (qtype == RecordType.AAAA || ip.get().family() == IpLiteral.Family.IPV4);
      if (!familyOk) {
        invalid++;
        continue;
      }
      out.add(ip.get());
      minTtl = Math.min(minTtl, r.ttlSeconds());
    }
    String detail = invalid > 0 ? invalid + " record(s) with an unusable address" : "";
    if (out.isEmpty()) {
      return new QueryResult(ProbeStatus.ERROR, List.of(), null, capped, detail);
    }
    return new QueryResult(ProbeStatus.OK, List.copyOf(out), minTtl, capped, detail);
  }

  private static List<ReplyRecord> owned(List<ReplyRecord> records, String owner, RecordType t) {
    List<ReplyRecord> out = new ArrayList<>();
    for (ReplyRecord r : records) {
      if (r.type() == t && owner.equals(Hostnames.normalise(r.owner()))) {
        out.add(r);
      }
    }
    return out;
  }

  private static boolean isReferral(DnsReply reply) {
    boolean ns = false;
    for (ReplyRecord r : reply.authority()) {
      if (r.type() == RecordType.SOA) {
        return false;
      }
      ns |= r.type() == RecordType.NS;
    }
    return ns;
  }

  /**
   * The name servers of a zone named in a reply (answer or authority section, e.g. a parent's
   * referral), lower case, in order, without duplicates.
   */
  public static List<String> nameServers(String zone, DnsReply reply) {
    String z = Hostnames.normalise(zone);
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (List<ReplyRecord> section : List.of(reply.answers(), reply.authority())) {
      for (ReplyRecord r : section) {
        if (r.type() == RecordType.NS && z.equals(Hostnames.normalise(r.owner()))) {
          out.add(Hostnames.normalise(r.data()));
        }
      }
    }
    return List.copyOf(out);
  }
}
