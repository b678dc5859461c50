package dev.cairn.recordwriter.kube;

/**
 * Orders Kubernetes resourceVersions where that is possible. They are opaque, but etcd (and the
 * CRUD mock) use increasing integers; the caches use the order so that a late watch event never
 * rolls their view back to an older object.
 */
final class ResourceVersion {

  private ResourceVersion() {}

  /** The version as a number, or -1 when it is missing or not a plain decimal number. */
  static long order(String resourceVersion) {
    if (resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.length() > 18) {
      return -1;
    }
    for (int i = 0; i < resourceVersion.length(); i++) {
      char c = resourceVersion.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
    }
    return Long.parseLong(resourceVersion);
  }
}
