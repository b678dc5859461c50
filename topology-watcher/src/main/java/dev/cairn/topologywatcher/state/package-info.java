/**
 * The watcher's desired state and how it is compared with what was published: {@link
 * dev.cairn.topologywatcher.state.TopologyView} (the normalised record of every key, the one source
 * the publisher reads) and {@link dev.cairn.topologywatcher.state.StateDiff} (the exact differences
 * between two key-value tables, tombstones included).
 *
 * <p>Pure core: {@code java.*}, common-model and the pure normalize package only, no clock, no I/O.
 */
package dev.cairn.topologywatcher.state;
