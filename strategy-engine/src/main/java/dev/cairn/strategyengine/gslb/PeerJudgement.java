package dev.cairn.strategyengine.gslb;

import dev.cairn.commonmodel.decision.Explanation.Skipped;
import dev.cairn.commonmodel.health.PeerAnswer;
import dev.cairn.commonmodel.health.ProbeStatus;
import dev.cairn.commonmodel.validation.IpLiteral;
import dev.cairn.commonmodel.validation.IpLiteral.Family;
import dev.cairn.strategyengine.placement.CanonicalText;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One peer's answer for one host, judged at an instant.
 *
 * <p>The split-brain rule: an answer from a <em>reachable</em> peer counts at once, whatever it
 * says (targets, NXDOMAIN, NODATA). An <em>unreachable</em> peer (TIMEOUT, REFUSED, ERROR,
 * SERVFAIL) keeps its last answer trusted until {@code lastSuccess + threshold}; from that instant
 * on the peer is treated as gone. A peer that never answered is gone at once.
 *
 * @param answer the answer as published by the prober
 * @param verdict how it counts
 * @param targets the usable targets (canonical, string-sorted); empty unless {@link
 *     PeerVerdict#serving()}
 * @param trustedUntil when an unreachable peer's last answer stops being trusted, {@code null}
 *     otherwise
 * @param reason one sentence explaining the verdict
 * @param skipped invalid targets left out of the answer
 */
public record PeerJudgement(
    PeerAnswer answer,
    PeerVerdict verdict,
    TagTargets targets,
    Instant trustedUntil,
    String reason,
    List<Skipped> skipped) {

  public PeerJudgement {
    Objects.requireNonNull(answer, "answer");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(targets, "targets");
    Objects.requireNonNull(reason, "reason");
    skipped = skipped.isEmpty() ? List.of() : List.copyOf(skipped);
  }

  /** The peer's geo tag. */
  public String geoTag() {
    return answer.geoTag();
  }

  /**
   * Judges a peer's answer.
   *
   * @param answer the answer
   * @param me this cluster's geo tag
   * @param threshold the Gslb's split-brain threshold
   * @param now the evaluation time
   */
  public static PeerJudgement judge(PeerAnswer answer, String me, Duration threshold, Instant now) {
    String tag = answer.geoTag();
    if (tag.equals(me)) {
      return new PeerJudgement(
          answer,
          PeerVerdict.SELF,
          TagTargets.NONE,
          null,
          "the answer carries this cluster's own geo tag " + me + "; it is not a peer",
          List.of());
    }
    if (!GslbSettings.isGeoTag(tag)) {
      return new PeerJudgement(
          answer,
          PeerVerdict.INVALID,
          TagTargets.NONE,
          null,
          "geo tag '" + tag + "' may hold only letters, digits and '-'",
          List.of());
    }
    List<Skipped> skipped = new ArrayList<>(0);
    TagTargets last =
        new TagTargets(
            canonical(answer, "ipv4", answer.ipv4(), Family.IPV4, skipped),
            canonical(answer, "ipv6", answer.ipv6(), Family.IPV6, skipped));
    if (answer.status().reachable()) {
      if (last.isEmpty()) {
        return new PeerJudgement(
            answer,
            PeerVerdict.EMPTY,
            TagTargets.NONE,
            null,
            "answered "
                + answer.status()
                + (answer.status() == ProbeStatus.OK ? " without a usable target" : "")
                + ": the host is not served there",
            skipped);
      }
      return new PeerJudgement(
          answer,
          PeerVerdict.ANSWERED,
          last,
          null,
          "answered with " + last.size() + " target(s)",
          skipped);
    }
    Instant lastSuccess = answer.lastSuccess();
    if (lastSuccess == null) {
      return new PeerJudgement(
          answer,
          PeerVerdict.NEVER_ANSWERED,
          TagTargets.NONE,
          null,
          "unreachable (" + answer.status() + ") and never answered: treated as gone",
          skipped);
    }
    Instant until = lastSuccess.plus(threshold);
    String since = answer.failingSince() == null ? "" : " since " + answer.failingSince();
    if (!now.isBefore(until)) {
      return new PeerJudgement(
          answer,
          PeerVerdict.EXPIRED,
          TagTargets.NONE,
          null,
          "unreachable ("
              + answer.status()
              + ")"
              + since
              + "; its last answer of "
              + lastSuccess
              + " expired at "
              + until
              + " (split-brain threshold "
              + threshold.toSeconds()
              + "s): treated as gone",
          skipped);
    }
    String trust =
        "unreachable ("
            + answer.status()
            + ")"
            + since
            + "; its last answer of "
            + lastSuccess
            + " is trusted until "
            + until
            + " (split-brain threshold "
            + threshold.toSeconds()
            + "s)";
    if (last.isEmpty()) {
      return new PeerJudgement(
          answer,
          PeerVerdict.TRUSTED_EMPTY,
          TagTargets.NONE,
          until,
          trust + "; it held no target",
          skipped);
    }
    return new PeerJudgement(
        answer,
        PeerVerdict.TRUSTED,
        last,
        until,
        trust + " with " + last.size() + " target(s)",
        skipped);
  }

  /**
   * The canonical, distinct, string-sorted literals of one family in a list; the others are
   * skipped.
   */
  private static List<String> canonical(
      PeerAnswer answer, String field, List<String> values, Family family, List<Skipped> skipped) {
    int size = values.size();
    if (size == 0) {
      return List.of();
    }
    String[] found = new String[size];
    int count = 0;
    for (int i = 0; i < size; i++) {
      String value = values.get(i);
      String text = canonicalText(value, family);
      if (text == null) {
        skipped.add(
            new Skipped(
                "peer " + answer.geoTag() + " " + field + "[" + i + "] '" + value + "'",
                "not a strict " + (family == Family.IPV4 ? "IPv4" : "IPv6") + " literal"));
      } else {
        found[count++] = text;
      }
    }
    return TargetLists.sortedDistinct(found, count);
  }

  /** The canonical text of a literal of {@code family}, {@code null} when it is not one. */
  static String canonicalText(String value, Family family) {
    if (family == Family.IPV4 && CanonicalText.isCanonicalIpv4(value)) {
      return value;
    }
    Optional<IpLiteral> ip = IpLiteral.parse(value);
    return ip.isPresent() && ip.get().family() == family ? ip.get().text() : null;
  }
}
