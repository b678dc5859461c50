package dev.cairn.recordwriter.notice;

import dev.cairn.recordwriter.plan.ObjectNames;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * Something users must see on a source object (an HTTPRoute, a Gslb) with {@code kubectl describe}:
 * the value of a Kubernetes Event of type {@code Warning}. Two notices with the same subject,
 * reason and note are the same condition; it is recorded once, under a name derived from those (so
 * a restart or another leader finds the Event it already recorded instead of adding one).
 *
 * @param regarding the object the notice is about
 * @param related a second object involved (the contested DNSEndpoint), or {@code null}
 * @param reason the machine-readable reason
 * @param action what Cairn was doing, e.g. {@code PublishDNSEndpoint}
 * @param note the human-readable sentence, at most {@value #MAX_NOTE_BYTES} bytes of UTF-8
 */
public record Notice(
    Subject regarding, Subject related, Reason reason, String action, String note) {

  /** The longest note the API server accepts, in bytes of UTF-8. */
  public static final int MAX_NOTE_BYTES = 1024;

  /** The longest Event name derived here (a DNS-1123 subdomain). */
  static final int MAX_NAME = 253;

  private static final int DIGEST_CHARS = 16;

  /** Why a notice is raised; {@link #text()} is the Event's {@code reason}. */
  public enum Reason {
    /** The DNSEndpoint a source wants is held by another owner; it is left alone. */
    RECORD_CONFLICT("RecordConflict"),
    /** Some of the records decided for a source were rejected and not published. */
    INVALID_ENDPOINT("InvalidEndpoint"),
    /** The strategy-engine reported invalid fields of a source (a Gslb, an HTTPRoute). */
    INVALID_SPEC("InvalidSpec"),
    /** The Ingress a Gslb embeds is named like another Ingress that is not the Gslb's. */
    INGRESS_CONFLICT("IngressConflict"),
    /** The API server refused the Ingress built from a Gslb's {@code spec.ingress}. */
    INVALID_INGRESS("InvalidIngress"),
    /**
     * An Ingress's {@code k8gb.io/*} annotations cannot make a Gslb: an unknown strategy, a TTL
     * that is not a whole number, failover without a primary, or a Gslb the API server refused.
     */
    INVALID_ANNOTATION("InvalidAnnotation"),
    /** An annotated Ingress's Gslb name is taken by a Gslb the Ingress does not control. */
    GSLB_CONFLICT("GslbConflict");

    private final String text;

    Reason(String text) {
      this.text = text;
    }

    /** The reason as written to the Event (UpperCamelCase). */
    public String text() {
      return text;
    }
  }

  /**
   * An object a notice refers to.
   *
   * @param apiVersion the apiVersion, e.g. {@code gateway.networking.k8s.io/v1}; may be {@code
   *     null} when unknown
   * @param kind the kind
   * @param namespace the namespace, {@code null} for a cluster-scoped object
   * @param name the name
   * @param uid the uid, {@code null} when unknown ({@code kubectl describe} finds Events by uid)
   */
  public record Subject(String apiVersion, String kind, String namespace, String name, String uid) {
    public Subject {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(name, "name");
      apiVersion = blankToNull(apiVersion);
      namespace = blankToNull(namespace);
      uid = blankToNull(uid);
    }

    /** {@code kind/namespace/name}, or {@code kind/name}. */
    @Override
    public String toString() {
      return namespace == null ? kind + "/" + name : kind + "/" + namespace + "/" + name;
    }
  }

  public Notice {
    Objects.requireNonNull(regarding, "regarding");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(action, "action");
    note = truncate(Objects.requireNonNull(note, "note"));
  }

  /** The namespace the Event lives in: the regarding object's, {@code default} when it has none. */
  public String namespace() {
    return regarding.namespace() == null ? "default" : regarding.namespace();
  }

  /** What makes two notices the same condition: subject (with uid), reason and note. */
  public String identity() {
    return regarding
        + "#"
        + (regarding.uid() == null ? "" : regarding.uid())
        + "|"
        + reason
        + "|"
        + note;
  }

  /**
   * The Event name: the regarding object's name and a digest of {@link #identity()}, a DNS-1123
   * subdomain of at most {@value #MAX_NAME} characters.
   */
  public String eventName() {
    String digest = digest(identity());
    String base = eventNameBase(regarding.name(), MAX_NAME - DIGEST_CHARS - 1);
    return base.isEmpty() ? digest : base + "." + digest;
  }

  static String eventNameBase(String name, int max) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.length() > max) {
      lower = lower.substring(0, max);
    }
    if (!ObjectNames.isSubdomain(lower)) {
      lower = lower.replaceAll("[^a-z0-9]+", "-");
    }
    return lower.replaceAll("^[^a-z0-9]+", "").replaceAll("[^a-z0-9]+$", "");
  }

  private static String digest(String text) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash).substring(0, DIGEST_CHARS);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }

  static String truncate(String note) {
    if (note.getBytes(StandardCharsets.UTF_8).length <= MAX_NOTE_BYTES) {
      return note;
    }
    String ellipsis = " …";
    int budget = MAX_NOTE_BYTES - ellipsis.getBytes(StandardCharsets.UTF_8).length;
    StringBuilder out = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < note.length(); ) {
      int cp = note.codePointAt(i);
      int size = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + size > budget) {
        break;
      }
      out.appendCodePoint(cp);
      bytes += size;
      i += Character.charCount(cp);
    }
    return out + ellipsis;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
