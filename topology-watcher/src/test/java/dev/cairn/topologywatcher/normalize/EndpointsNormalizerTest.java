package dev.cairn.topologywatcher.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.topology.EndpointState;
import dev.cairn.commonmodel.topology.ServiceEndpoints;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointsNormalizerTest {

  private static EndpointSliceInput.Endpoint endpoint(String address, String node, Boolean ready) {
    return new EndpointSliceInput.Endpoint(List.of(address), node, "eu-1a", ready, ready, false);
  }

  @Test
  void mergesAllSlicesOfAServiceInSliceNameOrderWhateverOrderTheyCameIn() {
    EndpointSliceInput b =
        new EndpointSliceInput(
            "web-b",
            "IPv4",
            List.of(endpoint("10.1.0.3", "node-c", true), endpoint("10.1.0.4", "node-d", null)));
    EndpointSliceInput a =
        new EndpointSliceInput("web-a", "IPv4", List.of(endpoint("10.1.0.9", "node-a", false)));
    List<EndpointSliceInput> slices = new ArrayList<>(List.of(b, a));

    ServiceEndpoints merged = EndpointsNormalizer.merge("shop", "web", slices).orElseThrow();
    Collections.reverse(slices);
    ServiceEndpoints again = EndpointsNormalizer.merge("shop", "web", slices).orElseThrow();

    assertThat(merged).isEqualTo(again);
    assertThat(merged.ref().key()).isEqualTo("Service/shop/web");
    assertThat(merged.endpoints())
        .extracting(EndpointState::nodeName)
        .containsExactly("node-a", "node-c", "node-d");
    assertThat(merged.endpoints().get(0).isReady()).isFalse();
    assertThat(merged.endpoints().get(2).isReady()).isTrue();
    assertThat(merged.endpoints().get(2).ready()).isNull();
    assertThat(merged.problems()).isEmpty();
  }

  @Test
  void noSlicesMeansATombstone() {
    assertThat(EndpointsNormalizer.merge("shop", "web", List.of())).isEmpty();
  }

  @Test
  void leavesOutAddressesThatDoNotMatchTheAddressTypeButKeepsTheEndpoint() {
    EndpointSliceInput slice =
        new EndpointSliceInput(
            "web-a",
            "IPv4",
            List.of(
                new EndpointSliceInput.Endpoint(
                    List.of("10.1.0.1", "fd00::1"), "node-a", null, true, null, null)));
    EndpointSliceInput fqdn =
        new EndpointSliceInput(
            "web-b",
            "FQDN",
            List.of(
                new EndpointSliceInput.Endpoint(
                    List.of("backend.example.com"), null, null, null, null, null)));

    ServiceEndpoints merged =
        EndpointsNormalizer.merge("shop", "web", List.of(slice, fqdn)).orElseThrow();

    assertThat(merged.endpoints().get(0).addresses()).containsExactly("10.1.0.1");
    assertThat(merged.endpoints().get(1).addresses()).containsExactly("backend.example.com");
    assertThat(merged.problems())
        .extracting(Problem::field, Problem::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "endpointSlices[web-a].endpoints[0].addresses[1]", "fd00::1"));
  }
}
