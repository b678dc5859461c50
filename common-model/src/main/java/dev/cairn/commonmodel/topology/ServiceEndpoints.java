package dev.cairn.commonmodel.topology;

import dev.cairn.commonmodel.Copies;
import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Objects;

/**
 * The endpoints of one Service, gathered from all its EndpointSlices (label {@code
 * kubernetes.io/service-name}). Published on {@code cairn.topology.endpoints.v1}, keyed {@code
 * Service/<namespace>/<service>}. A Service with no slices left is a tombstone.
 *
 * @param namespace the Service namespace
 * @param service the Service name
 * @param endpoints every endpoint of every slice, sorted by slice name then position
 * @param problems what could not be normalised, each naming the field and value
 */
public record ServiceEndpoints(
    String namespace, String service, List<EndpointState> endpoints, List<Problem> problems) {

  public ServiceEndpoints {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(service, "service");
    endpoints = Copies.list(endpoints);
    problems = Copies.list(problems);
  }

  /** The stable id: the Service this endpoint set belongs to. */
  public ObjectRef ref() {
    return ObjectRef.of("Service", namespace, service);
  }
}
