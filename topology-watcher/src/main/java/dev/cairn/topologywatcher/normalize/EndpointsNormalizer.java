package dev.cairn.topologywatcher.normalize;

import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.IpLiteral;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * All EndpointSlices of one Service to one {@link ServiceEndpoints}: slices sorted by name, the
 * endpoints of each in slice order, so the result does not depend on the order the slices were seen
 * in. No slices means no record (a tombstone).
 */
public final class EndpointsNormalizer {

  /** The label that ties an EndpointSlice to its Service. */
  public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  private EndpointsNormalizer() {}

  /**
   * Merges the slices of {@code namespace/service}.
   *
   * @return the merged endpoints, or empty when there are no slices (publish a tombstone)
   */
  public static Optional<ServiceEndpoints> merge(
      String namespace, String service, List<EndpointSliceInput> slices) {
    if (slices.isEmpty()) {
      return Optional.empty();
    }
    Problems problems = new Problems();
    List<EndpointState> endpoints = new ArrayList<>();
    List<EndpointSliceInput> sorted =
        slices.stream().sorted(Comparator.comparing(EndpointSliceInput::name)).toList();
    for (EndpointSliceInput slice : sorted) {
      for (int e = 0; e < slice.endpoints().size(); e++) {
        EndpointSliceInput.Endpoint endpoint = slice.endpoints().get(e);
        String field = "endpointSlices[" + slice.name() + "].endpoints[" + e + "]";
        List<String> addresses = new ArrayList<>();
        for (int a = 0; a < endpoint.addresses().size(); a++) {
          String address = endpoint.addresses().get(a);
          if (validAddress(slice.addressType(), address)) {
            addresses.add(address);
          } else {
            problems.add(
                field + ".addresses[" + a + "]",
                address,
                "not a valid " + describe(slice.addressType()) + "; the address is left out");
          }
        }
        endpoints.add(
            new EndpointState(
                addresses,
                endpoint.nodeName(),
                endpoint.zone(),
                endpoint.ready(),
                endpoint.serving(),
                endpoint.terminating()));
      }
    }
    return Optional.of(new ServiceEndpoints(namespace, service, endpoints, problems.list()));
  }

  private static boolean validAddress(String addressType, String address) {
    if (address == null) {
      return false;
    }
    if ("IPv4".equals(addressType)) {
      return IpLiteral.isIpv4(address);
    }
    if ("IPv6".equals(addressType)) {
      return IpLiteral.isIpv6(address);
    }
    if ("FQDN".equals(addressType)) {
      return Hostnames.isValid(address);
    }
    return IpLiteral.parse(address).isPresent() || Hostnames.isValid(address);
  }

  private static String describe(String addressType) {
    if ("IPv4".equals(addressType)) {
      return "IPv4 address literal";
    }
    if ("IPv6".equals(addressType)) {
      return "IPv6 address literal";
    }
    if ("FQDN".equals(addressType)) {
      return "host name";
    }
    return "IP address literal or host name";
  }
}
