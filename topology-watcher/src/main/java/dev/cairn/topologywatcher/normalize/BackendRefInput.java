package dev.cairn.topologywatcher.normalize;

/**
 * A backend reference as found in the object, every field possibly missing.
 *
 * @param group the API group
 * @param kind the kind
 * @param namespace the namespace
 * @param name the name
 * @param port the port number
 * @param weight the weight
 */
public record BackendRefInput(
    String group, String kind, String namespace, String name, Integer port, Integer weight) {

  /** A Service backend of an Ingress path: name and port number, nothing else. */
  public static BackendRefInput service(String name, Integer port) {
    return new BackendRefInput(null, null, null, name, port, null);
  }
}
