/**
 * The pure core of the watcher: functions from a Kubernetes object, given as a small input record
 * ({@link dev.cairn.topologywatcher.normalize.HttpRouteInput}, {@link
 * dev.cairn.topologywatcher.normalize.NodeInput}, ...), to the contract record published for it
 * ({@code RouteState}, {@code NodeState}, ...).
 *
 * <p>This package imports only {@code java.*} and common-model: no Spring, Kafka or fabric8, no
 * clock. The {@code kube} adapter copies the fields of a fabric8 object into an input record
 * without interpreting them; every decision (which annotations are relevant, what is valid, what a
 * default is) is made here, so it is unit-tested without an API server.
 *
 * <p>Rules shared by every normaliser:
 *
 * <ul>
 *   <li>Values are published as written (no case folding, no canonicalisation); the consumer
 *       normalises with the same common-model rules.
 *   <li>Typed list entries (host names, addresses, backends, ports) that fail validation are left
 *       out of the record and named in {@code problems}; the rest of the object is still published.
 *   <li>Annotations are filtered to the keys Cairn reads and copied verbatim; a value that fails
 *       its check stays in the map (consumers parse it with the same rules) and is named in {@code
 *       problems}.
 * </ul>
 */
package dev.cairn.topologywatcher.normalize;
