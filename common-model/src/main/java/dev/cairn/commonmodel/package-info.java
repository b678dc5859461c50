/**
 * Cairn's event contract: the immutable records every service exchanges over Kafka, the topic names
 * ({@link dev.cairn.commonmodel.Topics}), the one JSON codec ({@code codec}) and the shared
 * validation rules ({@code validation}).
 *
 * <p>Records in this module carry full current state for one entity, keyed by its stable id ({@link
 * dev.cairn.commonmodel.ObjectRef#key()}); a deletion is a tombstone (a {@code null} value). Within
 * a major version changes are additive only: new optional fields, and consumers ignore unknown
 * properties.
 */
package dev.cairn.commonmodel;
