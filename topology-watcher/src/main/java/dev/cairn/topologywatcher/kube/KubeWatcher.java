package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.topology.ServiceState;
import dev.cairn.topologywatcher.health.WatcherMetrics;
import dev.cairn.topologywatcher.normalize.IstioJoin;
import dev.cairn.topologywatcher.state.Entity;
import dev.cairn.topologywatcher.state.TopologyView;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches every kind the watcher reads and keeps the {@link TopologyView} equal to what the API
 * server holds: HTTPRoute and Gateway ({@code gateway.networking.k8s.io} v1, else v1beta1), the
 * other Gateway API routes, Ingress, Istio's VirtualService and Gateway ({@code
 * networking.istio.io}; a VirtualService joined with its Gateway's Service), Service, EndpointSlice
 * (merged per Service), Node and Gslb ({@code k8gb.io/v1beta1}).
 *
 * <p>Kinds defined by a CRD that is not installed are looked for again every {@code
 * crdPollInterval} and watched as soon as they appear. Every {@code resyncPeriod} each kind is
 * listed again from scratch (new informers, then a swap), which repairs anything a lost watch event
 * left behind; the view, and so the topics, only change where the API server's state differs.
 */
public final class KubeWatcher implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(KubeWatcher.class);

  private final List<KindWatch> kinds;
  private final ScheduledExecutorService scheduler;
  private final Duration resyncPeriod;
  private final Duration crdPollInterval;
  private volatile RelistListener afterRelist = complete -> {};

  public KubeWatcher(
      KubernetesClient client,
      TopologyView view,
      WatchScope scope,
      Duration resyncPeriod,
      Duration crdPollInterval,
      WatcherMetrics metrics,
      Clock clock) {
    this.resyncPeriod = resyncPeriod;
    this.crdPollInterval = crdPollInterval;
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "cairn-watcher-kube");
              t.setDaemon(true);
              return t;
            });
    Duration relistTimeout =
        resyncPeriod.compareTo(Duration.ofMinutes(5)) < 0 ? Duration.ofMinutes(5) : resyncPeriod;
    BiFunction<Entity, SourceSelector, KindWatch> kind =
        (entity, selector) ->
            new KindWatch(
                entity, selector, client, scope, view, metrics, clock, scheduler, relistTimeout);
    KindWatch virtualServices =
        kind.apply(
            Entity.VIRTUAL_SERVICE,
            SourceSelector.discovered(
                IstioSources.VIRTUAL_SERVICES, IstioSources.virtualServices(view)));
    this.kinds =
        List.of(
            kind.apply(
                Entity.HTTP_ROUTE,
                SourceSelector.discovered(
                    RouteSource.HTTP_ROUTES,
                    List.of(RouteSource.httpV1(), RouteSource.httpV1beta1()))),
            kind.apply(
                Entity.GRPC_ROUTE,
                SourceSelector.discovered(
                    RouteSource.GRPC_ROUTES,
                    List.of(RouteSource.grpcV1(), RouteSource.grpcV1alpha2()))),
            kind.apply(
                Entity.TLS_ROUTE,
                SourceSelector.discovered(UntypedRouteSource.TLS_ROUTES, UntypedRouteSource.tls())),
            kind.apply(
                Entity.TCP_ROUTE,
                SourceSelector.discovered(UntypedRouteSource.TCP_ROUTES, UntypedRouteSource.tcp())),
            kind.apply(
                Entity.UDP_ROUTE,
                SourceSelector.discovered(UntypedRouteSource.UDP_ROUTES, UntypedRouteSource.udp())),
            kind.apply(Entity.INGRESS, SourceSelector.fixed(new IngressSource())),
            kind.apply(
                Entity.GATEWAY,
                SourceSelector.discovered(
                    GatewaySource.PLURAL, List.of(GatewaySource.v1(), GatewaySource.v1beta1()))),
            kind.apply(
                Entity.ISTIO_GATEWAY,
                SourceSelector.discovered(IstioSources.GATEWAYS, IstioSources.gateways())),
            virtualServices,
            kind.apply(Entity.SERVICE, SourceSelector.fixed(new ServiceSource())),
            kind.apply(Entity.SERVICE_ENDPOINTS, SourceSelector.fixed(new EndpointSliceSource())),
            kind.apply(Entity.NODE, SourceSelector.fixed(new NodeSource())),
            kind.apply(
                Entity.GSLB,
                SourceSelector.discovered(GslbSource.PLURAL, List.of(new GslbSource()))));
    view.addListener(
        (entity, key, previous, current) -> {
          Set<String> gateways =
              switch (entity) {
                case ISTIO_GATEWAY -> Set.of(key);
                case SERVICE ->
                    IstioJoin.gatewaysSelecting(
                        view.values(Entity.ISTIO_GATEWAY),
                        previous instanceof ServiceState s ? s : null,
                        current instanceof ServiceState s ? s : null);
                default -> Set.of();
              };
          if (!gateways.isEmpty()) {
            virtualServices.recomputeWhere(digest -> IstioJoin.references(digest, gateways));
          }
        });
  }

  /** Told after every round of full re-lists, on the watcher's scheduler thread. */
  @FunctionalInterface
  public interface RelistListener {

    /**
     * A round of full re-lists ended.
     *
     * @param complete true when every kind was listed again or found not served, so the view is
     *     confirmed complete; false when a kind's re-list failed or a kind is not being watched
     *     (its current informers, if any, go on watching)
     */
    void relisted(boolean complete);
  }

  /** Sets what is told after every round of full re-lists. */
  public void afterRelist(RelistListener listener) {
    this.afterRelist = listener;
  }

  /** Starts looking for and watching every kind. */
  public void start() {
    scheduler.execute(() -> kinds.forEach(k -> guarded("start", k::tick)));
    long poll = crdPollInterval.toMillis();
    scheduler.scheduleWithFixedDelay(
        () -> kinds.forEach(k -> guarded("poll", k::tick)), poll, poll, TimeUnit.MILLISECONDS);
    long resync = resyncPeriod.toMillis();
    scheduler.scheduleWithFixedDelay(this::relistAll, resync, resync, TimeUnit.MILLISECONDS);
  }

  /** Completes when every kind has finished its initial list or was found not installed. */
  public CompletableFuture<Void> initialSync() {
    return CompletableFuture.allOf(
        kinds.stream().map(KindWatch::initialSync).toArray(CompletableFuture[]::new));
  }

  /** The state of every kind, in entity order. */
  public List<KindStatus> status() {
    return kinds.stream().map(KindWatch::status).toList();
  }

  /** What is looked for, for every kind whose CRD is not installed. */
  public List<String> missingKinds() {
    return kinds.stream().filter(KindWatch::missing).map(KindWatch::describe).toList();
  }

  private void relistAll() {
    List<String> unconfirmed = new ArrayList<>();
    for (KindWatch k : kinds) {
      boolean confirmed;
      try {
        confirmed = k.relist();
      } catch (RuntimeException e) {
        log.atError()
            .addKeyValue("kind", k.entity().label())
            .setCause(e)
            .log("re-list failed; continuing");
        confirmed = false;
      }
      if (!confirmed) {
        unconfirmed.add(k.entity().label());
      }
    }
    if (!unconfirmed.isEmpty()) {
      log.atWarn()
          .addKeyValue("kinds", unconfirmed)
          .log(
              "this round of re-lists did not confirm the view: {} could not be listed again; the"
                  + " next round tries again",
              String.join(", ", unconfirmed));
    }
    boolean complete = unconfirmed.isEmpty();
    guarded("after re-list", () -> afterRelist.relisted(complete));
  }

  private void guarded(String what, Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      log.atError().addKeyValue("task", what).setCause(e).log("watcher task failed; continuing");
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    kinds.forEach(KindWatch::stop);
  }
}
