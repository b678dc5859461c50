package dev.cairn.strategyengine.placement;

import dev.cairn.commonmodel.health.HostnameResolution;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Read access to the prober's hostname resolutions, keyed {@code <server>|<hostname>}. */
@FunctionalInterface
public interface ResolutionLookup {

  /** No resolutions at all. */
  ResolutionLookup NONE = key -> Optional.empty();

  /** The resolution published under {@code key}, if any. */
  Optional<HostnameResolution> find(String key);

  /** The key of a hostname resolved through a server: {@code <server>|<hostname>}. */
  static String key(String server, String hostname) {
    return server + "|" + hostname;
  }

  /** A lookup over a fixed set of resolutions. */
  static ResolutionLookup of(Collection<HostnameResolution> resolutions) {
    Map<String, HostnameResolution> byKey =
        resolutions.stream()
            .collect(Collectors.toMap(HostnameResolution::key, Function.identity(), (a, b) -> b));
    return key -> Optional.ofNullable(byKey.get(key));
  }
}
