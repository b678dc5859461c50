package dev.cairn.dnsresponder.store;

import dev.cairn.dnsresponder.zone.EndpointInput;
import java.util.List;
import java.util.Map;

/** Where endpoints come from (port; the fabric8 informers are the adapter). */
public interface EndpointSource extends AutoCloseable {

  /** Told about changes; called from the source's threads, so implementations only schedule. */
  interface Listener {
    /** Something was added, changed or deleted. */
    void changed();

    /** Every watch has listed its objects once; {@link #inputs()} is complete from now on. */
    void synced();
  }

  /** Starts watching; returns at once, even when the API server cannot be reached. */
  void start(Listener listener);

  /** True once every watch has synced. */
  boolean synced();

  /** True while every watch is connected (false during an API outage). */
  boolean watching();

  /**
   * Every endpoint of every selected object now in the cache. Counts as having looked at every
   * change: the next {@link #changes()} holds only what changes after this call.
   */
  List<EndpointInput> inputs();

  /**
   * The objects added, changed or removed since the last call of this method or {@link #inputs()}:
   * for each, by {@code namespace/name} (the endpoints' {@code source}), its endpoints now, an
   * empty list when it is gone or declares none. An object reported that did not change in fact may
   * be in it too.
   */
  Map<String, List<EndpointInput>> changes();

  @Override
  void close();
}
