package dev.cairn.recordwriter.status;

import dev.cairn.recordwriter.plan.ObjectKey;
import java.util.Objects;

/**
 * A Gslb as it exists in the cluster, reduced to what the status plan compares.
 *
 * @param key namespace and name
 * @param uid the object's uid, or {@code null} if the API did not report one
 * @param version the resourceVersion read, opaque; the status write is conditional on it
 * @param status the object's {@code status} in its JSON form (maps, lists, strings), or {@code
 *     null} when it has none
 */
public record LiveGslb(ObjectKey key, String uid, String version, Object status) {

  public LiveGslb {
    Objects.requireNonNull(key, "key");
  }
}
