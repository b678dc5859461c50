package dev.cairn.strategyengine.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.topology.BackendRef;
import dev.cairn.commonmodel.topology.RouteState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the scenario files cannot express: the decider's contract with its callers. */
class PlacementDeciderTest {

  @Test
  void onlyPlacesHttpRoutes() {
    RouteState ingress =
        new RouteState(
            "Ingress",
            "networking.k8s.io/v1",
            "default",
            "app",
            null,
            List.of("a.example.com"),
            List.of(BackendRef.service("web")),
            Map.of(),
            List.of());

    assertThatThrownBy(
            () ->
                PlacementDecider.decide(
                    ingress,
                    Map.of(),
                    new NodeDirectory(),
                    ResolutionLookup.NONE,
                    PlacementSettings.defaults(),
                    Instant.EPOCH))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Ingress/default/app");
  }

  @Test
  void serviceNamesAreTheInNamespaceCoreServices() {
    RouteState route =
        new RouteState(
            "HTTPRoute",
            "gateway.networking.k8s.io/v1",
            "shop",
            "app",
            null,
            List.of(),
            List.of(
                BackendRef.service("web"),
                new BackendRef(null, null, "shop", "api", 80, 1),
                new BackendRef(null, null, "other", "db", null, null),
                new BackendRef("example.com", "Bucket", null, "files", null, null),
                BackendRef.service("web")),
            Map.of(),
            List.of());

    assertThat(PlacementDecider.serviceNames(route)).containsExactly("api", "web");
  }

  @Test
  void settingsRefuseToPublishNothing() {
    assertThatThrownBy(
            () ->
                new PlacementSettings(
                    false, false, false, "1.1.1.1", PlacementSettings.DEFAULT_RESOLUTION_MAX_STALE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("enable-ipv4");
    assertThatThrownBy(
            () ->
                new PlacementSettings(
                    true,
                    false,
                    false,
                    "not a server",
                    PlacementSettings.DEFAULT_RESOLUTION_MAX_STALE))
        .hasMessageContaining("engine.dns-resolver");
  }
}
