package dev.cairn.recordwriter.kube;

/**
 * The writer's view of the Gslbs in the cluster: fed by the informer, by reads after a conflict and
 * by the results of its own status writes. Thread-safe.
 */
public final class GslbCache extends ObjectCache {}
