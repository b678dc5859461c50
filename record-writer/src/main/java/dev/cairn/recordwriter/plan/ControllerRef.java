package dev.cairn.recordwriter.plan;

import java.util.Objects;

/**
 * The controller owner reference of a DNSEndpoint: the source object (HTTPRoute, Gslb) whose
 * deletion lets Kubernetes garbage-collect the record. Written with {@code controller: true} and
 * {@code blockOwnerDeletion: true}.
 *
 * @param apiVersion the owner's apiVersion, e.g. {@code gateway.networking.k8s.io/v1}
 * @param kind the owner's kind
 * @param name the owner's name
 * @param uid the owner's uid
 */
public record ControllerRef(String apiVersion, String kind, String name, String uid) {

  public ControllerRef {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
  }

  /** {@code kind/name (uid)}, for logs. */
  @Override
  public String toString() {
    return kind + "/" + name + " (" + uid + ")";
  }
}
