package dev.cairn.topologywatcher.state;

import dev.cairn.commonmodel.ObjectRef;
import dev.cairn.commonmodel.TopicSpec;
import dev.cairn.commonmodel.Topics;
import java.util.ArrayList;
import java.util.List;

/**
 * One kind of state the watcher holds: its name (the key prefix, the metric tag and the {@code
 * objectCounts} key of the sync marker) and its topic. Routes of every kind, Ingresses and Gateways
 * share a topic and are told apart by their key. An internal entity has no topic: it is held only
 * to be joined into a published one (Istio Gateways into VirtualServices).
 */
public enum Entity {
  HTTP_ROUTE("HTTPRoute", Topics.ROUTES),
  GRPC_ROUTE("GRPCRoute", Topics.ROUTES),
  TLS_ROUTE("TLSRoute", Topics.ROUTES),
  TCP_ROUTE("TCPRoute", Topics.ROUTES),
  UDP_ROUTE("UDPRoute", Topics.ROUTES),
  INGRESS("Ingress", Topics.ROUTES),
  GATEWAY("Gateway", Topics.ROUTES),
  VIRTUAL_SERVICE("VirtualService", Topics.ROUTES),
  ISTIO_GATEWAY("IstioGateway", null),
  SERVICE("Service", Topics.SERVICES),
  SERVICE_ENDPOINTS("ServiceEndpoints", Topics.ENDPOINTS),
  NODE("Node", Topics.NODES),
  GSLB("Gslb", Topics.GSLBS);

  /** The state topics, each once, in data-flow order (the sync topic is not among them). */
  public static final List<TopicSpec<?>> STATE_TOPICS =
      List.of(Topics.ROUTES, Topics.SERVICES, Topics.ENDPOINTS, Topics.NODES, Topics.GSLBS);

  private final String label;
  private final TopicSpec<?> topic;

  Entity(String label, TopicSpec<?> topic) {
    this.label = label;
    this.topic = topic;
  }

  /** The name used in metrics, health and sync-marker counts. */
  public String label() {
    return label;
  }

  /** The topic its records go to; {@code null} for an internal entity. */
  public TopicSpec<?> topic() {
    return topic;
  }

  /** True unless the entity is internal (held for a join, never published). */
  public boolean published() {
    return topic != null;
  }

  /** The entities published on a topic. */
  public static List<Entity> on(TopicSpec<?> topic) {
    List<Entity> entities = new ArrayList<>();
    for (Entity e : values()) {
      if (topic.equals(e.topic)) {
        entities.add(e);
      }
    }
    return entities;
  }

  /**
   * The entity a key of a topic belongs to: by the key's kind on the routes topic, the topic's only
   * entity elsewhere; {@code null} when the key fits none (a foreign key on the topic).
   */
  public static Entity of(TopicSpec<?> topic, String key) {
    List<Entity> candidates = on(topic);
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    String kind;
    try {
      kind = ObjectRef.parse(key).kind();
    } catch (IllegalArgumentException e) {
      return null;
    }
    for (Entity e : candidates) {
      if (e.label.equals(kind)) {
        return e;
      }
    }
    return null;
  }
}
