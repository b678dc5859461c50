package dev.cairn.topologywatcher.kube;

import java.time.Instant;

/**
 * The state of one watched kind, for health details.
 *
 * @param kind the entity label, e.g. {@code HTTPRoute}
 * @param phase {@code PENDING}, {@code MISSING} (CRD not installed; counts as synced and empty),
 *     {@code UNKNOWN} (discovery failed), {@code STARTING} (initial list running) or {@code
 *     WATCHING}
 * @param apiVersion the API version read, {@code null} while none is
 * @param objects the keys of this kind in the view
 * @param synced true once the initial list is done (or the CRD was found missing)
 * @param watching true while every informer of the kind has an open watch
 * @param message the last problem (discovery or list/watch failure) since the last complete list,
 *     {@code null} when none
 * @param lastList when the last complete list (initial or re-list) finished, {@code null} before
 */
public record KindStatus(
    String kind,
    String phase,
    String apiVersion,
    int objects,
    boolean synced,
    boolean watching,
    String message,
    Instant lastList) {}
