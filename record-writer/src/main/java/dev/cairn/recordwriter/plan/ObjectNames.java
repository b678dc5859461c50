package dev.cairn.recordwriter.plan;

import java.util.regex.Pattern;

/** Kubernetes object name syntax (DNS-1123), checked before anything is sent to the API. */
public final class ObjectNames {

  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private ObjectNames() {}

  /** A DNS-1123 label of at most 63 characters: what a namespace name must be. */
  public static boolean isLabel(String s) {
    return s != null && s.length() <= 63 && LABEL.matcher(s).matches();
  }

  /** A DNS-1123 subdomain of at most 253 characters: what a DNSEndpoint name must be. */
  public static boolean isSubdomain(String s) {
    return s != null && s.length() <= 253 && SUBDOMAIN.matcher(s).matches();
  }
}
