package dev.cairn.topologywatcher.kube;

import dev.cairn.commonmodel.codec.CairnJson;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;

/**
 * fabric8's serialization as the watcher uses it: on Cairn's JSON factory (property names not
 * canonicalized, see {@link CairnJson#factory()}), with the JDK types module. The client's and
 * {@link TypedConversion}'s come from here, so an object converted one at a time reads exactly as a
 * typed informer of the client would have read it.
 */
public final class WatcherSerialization {

  private WatcherSerialization() {}

  /** A new serialization with the watcher's settings. */
  public static KubernetesSerialization create() {
    return new KubernetesSerialization(
        CairnJson.kubernetesMapperBuilder().addModule(new Jackson2JdkTypesModule()).build(), true);
  }
}
