package dev.cairn.recordwriter.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.function.Supplier;

/**
 * A store's informer, which may not run yet: started at most once until closed, asked whether it
 * has listed everything and whether it watches. Thread-safe.
 */
final class InformerSlot {

  private volatile SharedIndexInformer<GenericKubernetesResource> informer;

  /** True while an informer runs. */
  boolean running() {
    return informer != null;
  }

  /** Starts the informer unless one runs already. */
  synchronized void start(Supplier<SharedIndexInformer<GenericKubernetesResource>> start) {
    if (informer == null) {
      informer = start.get();
    }
  }

  /** True once the informer has listed everything. */
  boolean synced() {
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    return i != null && i.hasSynced();
  }

  /** True while the informer is watching. */
  boolean watching() {
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    return i != null && i.isWatching();
  }

  /** Stops the informer; {@link #start} may start a new one. */
  synchronized void close() {
    if (informer != null) {
      informer.close();
      informer = null;
    }
  }
}
