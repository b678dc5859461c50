package dev.cairn.topologywatcher.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.Topics;
import dev.cairn.commonmodel.topology.NodeState;
import dev.cairn.commonmodel.topology.RouteState;
import dev.cairn.commonmodel.validation.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyViewTest {

  private static NodeState node(String zone, List<Problem> problems) {
    return new NodeState("a", zone, null, false, List.of(), Map.of(), problems);
  }

  private static RouteState route(String kind, String name) {
    return new RouteState(kind, "v", "shop", name, null, List.of(), List.of(), Map.of(), List.of());
  }

  @Test
  void tellsListenersOnlyAboutRealChanges() {
    TopologyView view = new TopologyView();
    List<String> changes = new ArrayList<>();
    view.addListener(
        (entity, key, previous, current) -> changes.add(key + ":" + (current != null)));

    assertThat(view.put(Entity.NODE, "Node/a", node("z1", List.of()))).isTrue();
    assertThat(view.put(Entity.NODE, "Node/a", node("z1", List.of()))).isFalse();
    assertThat(view.put(Entity.NODE, "Node/a", node("z2", List.of()))).isTrue();
    assertThat(view.put(Entity.NODE, "Node/a", null)).isTrue();
    assertThat(view.put(Entity.NODE, "Node/a", null)).isFalse();

    assertThat(changes).containsExactly("Node/a:true", "Node/a:true", "Node/a:false");
  }

  @Test
  void countsKeysWithProblems() {
    TopologyView view = new TopologyView();
    Problem problem = new Problem("f", "v", "bad");

    view.put(Entity.NODE, "Node/a", node("z1", List.of(problem)));
    assertThat(view.withProblems(Entity.NODE)).isEqualTo(1);
    view.put(Entity.NODE, "Node/a", node("z2", List.of(problem)));
    assertThat(view.withProblems(Entity.NODE)).isEqualTo(1);
    view.put(Entity.NODE, "Node/a", node("z2", List.of()));
    assertThat(view.withProblems(Entity.NODE)).isZero();
    view.put(Entity.NODE, "Node/a", node("z2", List.of(problem)));
    view.put(Entity.NODE, "Node/a", null);
    assertThat(view.withProblems(Entity.NODE)).isZero();
  }

  @Test
  void routesOfEveryKindShareTheirTopic() {
    TopologyView view = new TopologyView();
    view.put(Entity.HTTP_ROUTE, "HTTPRoute/shop/a", route("HTTPRoute", "a"));
    view.put(Entity.INGRESS, "Ingress/shop/a", route("Ingress", "a"));

    assertThat(view.snapshot(Topics.ROUTES)).containsOnlyKeys("HTTPRoute/shop/a", "Ingress/shop/a");
    assertThat(view.get(Topics.ROUTES, "Ingress/shop/a")).isEqualTo(route("Ingress", "a"));
    assertThat(view.get(Topics.ROUTES, "Gateway/shop/a")).isNull();

    view.put(Entity.GATEWAY, "Gateway/shop/a", route("Gateway", "a"));

    assertThat(view.snapshot(Topics.ROUTES))
        .containsOnlyKeys("HTTPRoute/shop/a", "Ingress/shop/a", "Gateway/shop/a");
    assertThat(view.get(Topics.ROUTES, "Gateway/shop/a")).isEqualTo(route("Gateway", "a"));
    assertThat(view.counts())
        .containsEntry("HTTPRoute", 1)
        .containsEntry("Ingress", 1)
        .containsEntry("Gateway", 1)
        .containsEntry("Node", 0);
  }

  @Test
  void findsTheEntityOfAKey() {
    assertThat(Entity.of(Topics.ROUTES, "HTTPRoute/shop/a")).isEqualTo(Entity.HTTP_ROUTE);
    assertThat(Entity.of(Topics.ROUTES, "Ingress/shop/a")).isEqualTo(Entity.INGRESS);
    assertThat(Entity.of(Topics.ROUTES, "Gateway/shop/a")).isEqualTo(Entity.GATEWAY);
    assertThat(Entity.GATEWAY.topic()).isEqualTo(Topics.ROUTES);
    assertThat(Entity.of(Topics.ROUTES, "not a key")).isNull();
    assertThat(Entity.of(Topics.ENDPOINTS, "Service/shop/a")).isEqualTo(Entity.SERVICE_ENDPOINTS);
  }
}
