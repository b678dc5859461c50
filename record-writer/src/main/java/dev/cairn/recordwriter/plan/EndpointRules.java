package dev.cairn.recordwriter.plan;

import dev.cairn.commonmodel.decision.DnsRecord;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.commonmodel.validation.Ttl;
import dev.cairn.commonmodel.validation.TxtText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks desired records against what external-dns and the k8s_crd CoreDNS plugin would silently
 * drop or misserve (external-dns {@code source/crd.go}, {@code CheckEndpoint}, {@code
 * ResolveRecordTypes}), so an invalid endpoint is rejected here with a reason instead of vanishing
 * downstream. Each record is judged on its own; one bad record never rejects the others.
 *
 * <p>Rules: the name is a valid host name (labels of at most 63 octets, at most 253 in all, a
 * leading {@code *} label allowed); one trailing dot on names and host-name targets is removed (the
 * contract says names come without it, and external-dns trims it too); the targets are not empty;
 * {@code A} targets are strict IPv4 and {@code AAAA} targets strict IPv6 literals (a trailing dot
 * makes an address invalid, as external-dns drops it); a {@code CNAME} has exactly one host-name
 * target and no other record type at its name (RFC 1034 §3.6.2; external-dns drops the CNAME); the
 * TTL is 0 ("provider default") or within RFC 2181 bounds; every label has a value; one record per
 * name and type.
 */
public final class EndpointRules {

  /**
   * The record types Cairn writes (external-dns manages A, AAAA and CNAME by default, NS for k8gb).
   */
  public static final Set<String> SUPPORTED_TYPES = Set.of("A", "AAAA", "CNAME", "NS", "TXT");

  private EndpointRules() {}

  /**
   * The valid endpoints of a decision's records and a problem for each rejected record.
   *
   * @param endpoints the accepted endpoints, sorted
   * @param problems one problem per rejected record, naming {@code records[i]} and the field
   */
  public record Checked(List<Endpoint> endpoints, List<Problem> problems) {
    public Checked {
      endpoints = List.copyOf(endpoints);
      problems = List.copyOf(problems);
    }
  }

  /** Checks the records of one decision. */
  public static Checked check(List<DnsRecord> records) {
    List<Problem> problems = new ArrayList<>();
    Map<Integer, Endpoint> accepted = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < records.size(); i++) {
      String field = "records[" + i + "]";
      Result r = checkOne(field, records.get(i));
      if (r.problem != null) {
        problems.add(r.problem);
        continue;
      }
      String identity = r.endpoint.dnsName() + " " + r.endpoint.recordType();
      if (!seen.add(identity)) {
        problems.add(
            new Problem(
                field,
                identity,
                "a second "
                    + r.endpoint.recordType()
                    + " record for the same name; only the first is written"));
        continue;
      }
      accepted.put(i, r.endpoint);
    }
    Map<String, Set<String>> typesByName = new HashMap<>();
    for (Endpoint e : accepted.values()) {
      typesByName.computeIfAbsent(e.dnsName(), n -> new HashSet<>()).add(e.recordType());
    }
    List<Endpoint> endpoints = new ArrayList<>();
    for (Map.Entry<Integer, Endpoint> entry : accepted.entrySet()) {
      Endpoint e = entry.getValue();
      if (e.recordType().equals("CNAME") && typesByName.get(e.dnsName()).size() > 1) {
        Set<String> others = new HashSet<>(typesByName.get(e.dnsName()));
        others.remove("CNAME");
        problems.add(
            new Problem(
                "records[" + entry.getKey() + "].recordType",
                "CNAME",
                "a CNAME cannot share its name with other records ("
                    + String.join(", ", others.stream().sorted().toList())
                    + "); external-dns would drop it"));
        continue;
      }
      endpoints.add(e);
    }
    return new Checked(Endpoint.sorted(endpoints), problems);
  }

  private record Result(Endpoint endpoint, Problem problem) {
    static Result ok(Endpoint e) {
      return new Result(e, null);
    }

    static Result bad(String field, String value, String reason) {
      return new Result(null, new Problem(field, value, reason));
    }
  }

  private static Result checkOne(String field, DnsRecord record) {
    String type = record.recordType().strip().toUpperCase(Locale.ROOT);
    if (!SUPPORTED_TYPES.contains(type)) {
      return Result.bad(
          field + ".recordType",
          record.recordType(),
          "record type is not one of " + SUPPORTED_TYPES.stream().sorted().toList());
    }
    String name = record.dnsName();
    Optional<Problem> nameProblem = Hostnames.checkPattern(field + ".dnsName", name);
    if (nameProblem.isPresent()) {
      return new Result(null, nameProblem.get());
    }
    name = Hostnames.normalise(name);
    long ttl = record.ttlSeconds();
    if (ttl != 0) {
      Optional<Problem> ttlProblem = Ttl.check(field + ".ttlSeconds", ttl);
      if (ttlProblem.isPresent()) {
        return new Result(null, ttlProblem.get());
      }
    }
    List<String> raw = record.targets();
    if (raw.isEmpty()) {
      return Result.bad(field + ".targets", null, "no targets; an empty record answers NXDOMAIN");
    }
    List<String> targets = new ArrayList<>(raw.size());
    for (int j = 0; j < raw.size(); j++) {
      String tf = field + ".targets[" + j + "]";
      String t = raw.get(j);
      switch (type) {
        case "A", "AAAA" -> {
          IpLiteral.Family family =
              type.equals("A") ? IpLiteral.Family.IPV4 : IpLiteral.Family.IPV6;
          Optional<IpLiteral> ip = IpLiteral.parse(t);
          if (ip.isEmpty() || ip.get().family() != family) {
            return Result.bad(
                tf,
                t,
                "not a strict "
                    + (family == IpLiteral.Family.IPV4 ? "IPv4" : "IPv6")
                    + " address; external-dns drops the whole "
                    + type
                    + " endpoint");
          }
          targets.add(ip.get().text());
        }
        case "CNAME", "NS" -> {
          Optional<Problem> hostProblem = Hostnames.check(tf, t);
          if (hostProblem.isPresent()) {
            return new Result(null, hostProblem.get());
          }
          targets.add(Hostnames.normalise(t));
        }
        default -> {
          if (t == null || t.isEmpty()) {
            return Result.bad(tf, t, "empty target");
          }
          Optional<Problem> tooLong = TxtText.check(tf, t);
          if (tooLong.isPresent()) {
            return new Result(null, tooLong.get());
          }
          targets.add(t);
        }
      }
    }
    for (Map.Entry<String, String> label : record.labels().entrySet()) {
      if (label.getValue() == null) {
        return Result.bad(
            field + ".labels[" + label.getKey() + "]",
            null,
            "a label without a value; the DNSEndpoint schema allows only text");
      }
    }
    if (type.equals("CNAME") && targets.stream().distinct().count() > 1) {
      return Result.bad(
          field + ".targets",
          String.join(",", targets),
          "a CNAME has exactly one target; external-dns keeps only one of several");
    }
    return Result.ok(new Endpoint(name, type, ttl, targets, record.labels(), null, Map.of()));
  }
}
