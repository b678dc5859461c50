package dev.cairn.commonmodel;

import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds {@link ServiceEndpoints}; start with {@link TestRecords#anEndpoints(String, String)}. No
 * endpoints by default. Endpoints added without an address get {@code 10.244.0.<n>}, {@code n}
 * counting from 1 within this builder.
 */
public final class ServiceEndpointsBuilder {

  private final String namespace;
  private final String service;
  private final List<EndpointState> endpoints = new ArrayList<>();
  private final List<Problem> problems = new ArrayList<>();

  ServiceEndpointsBuilder(String namespace, String service) {
    this.namespace = namespace;
    this.service = service;
  }

  /** Adds a ready, serving, not terminating endpoint on a node, without zone. */
  public ServiceEndpointsBuilder withReadyEndpointOn(String node) {
    return withEndpoint(new EndpointState(nextAddress(), node, null, true, true, false));
  }

  /** Adds a ready, serving, not terminating endpoint on a node in a zone. */
  public ServiceEndpointsBuilder withReadyEndpointOn(String node, String zone) {
    return withEndpoint(new EndpointState(nextAddress(), node, zone, true, true, false));
  }

  /** Adds an endpoint that is neither ready nor serving (a failing readiness probe). */
  public ServiceEndpointsBuilder withNotReadyEndpointOn(String node) {
    return withEndpoint(new EndpointState(nextAddress(), node, null, false, false, false));
  }

  /** Adds an endpoint of a terminating pod that still serves (not ready, serving, terminating). */
  public ServiceEndpointsBuilder withTerminatingEndpointOn(String node) {
    return withEndpoint(new EndpointState(nextAddress(), node, null, false, true, true));
  }

  /** Adds a ready endpoint without {@code nodeName} (e.g. a manually managed slice). */
  public ServiceEndpointsBuilder withReadyEndpointWithoutNode() {
    return withEndpoint(new EndpointState(nextAddress(), null, null, true, true, false));
  }

  /** Adds an endpoint as written. */
  public ServiceEndpointsBuilder withEndpoint(EndpointState endpoint) {
    endpoints.add(endpoint);
    return this;
  }

  /** Adds a normalisation problem. */
  public ServiceEndpointsBuilder withProblem(Problem problem) {
    problems.add(problem);
    return this;
  }

  /** The endpoints of the Service. */
  public ServiceEndpoints build() {
    return new ServiceEndpoints(namespace, service, endpoints, problems);
  }

  private List<String> nextAddress() {
    return List.of("10.244.0." + (endpoints.size() + 1));
  }
}
