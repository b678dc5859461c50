package dev.cairn.recordwriter.plan;

import java.util.List;
import java.util.Objects;

/**
 * The writes a plan calls for, like external-dns's {@code plan.Changes}: objects to create, to
 * update (the object as read, so the write is conditional on its resourceVersion, and the object as
 * wanted) and to delete. Apply only when {@link #isEmpty()} is false.
 *
 * @param creates objects to create
 * @param updates objects to update
 * @param deletes objects to delete
 */
public record Changes(List<Create> creates, List<Update> updates, List<Delete> deletes) {

  public Changes {
    creates = List.copyOf(creates);
    updates = List.copyOf(updates);
    deletes = List.copyOf(deletes);
  }

  /** No changes. */
  public static Changes none() {
    return new Changes(List.of(), List.of(), List.of());
  }

  /** True when there is nothing to write. */
  public boolean isEmpty() {
    return creates.isEmpty() && updates.isEmpty() && deletes.isEmpty();
  }

  /** The number of writes. */
  public int size() {
    return creates.size() + updates.size() + deletes.size();
  }

  /** One planned write. */
  public sealed interface Change permits Create, Update, Delete {
    /** The object written. */
    ObjectKey key();

    /** Why. */
    ChangeReason reason();
  }

  /**
   * Create an object that does not exist.
   *
   * @param desired the object to create
   * @param reason why
   */
  public record Create(DesiredRecord desired, ChangeReason reason) implements Change {
    public Create {
      Objects.requireNonNull(desired, "desired");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public ObjectKey key() {
      return desired.key();
    }
  }

  /**
   * Replace an object, conditional on the version read.
   *
   * @param current the object as read
   * @param desired the object as wanted
   * @param reason why
   */
  public record Update(CurrentRecord current, DesiredRecord desired, ChangeReason reason)
      implements Change {
    public Update {
      Objects.requireNonNull(current, "current");
      Objects.requireNonNull(desired, "desired");
      Objects.requireNonNull(reason, "reason");
      if (!current.key().equals(desired.key())) {
        throw new IllegalArgumentException(
            "update of " + current.key() + " with a record for " + desired.key());
      }
    }

    @Override
    public ObjectKey key() {
      return current.key();
    }
  }

  /**
   * Delete an object, conditional on the version read.
   *
   * @param current the object as read
   * @param reason why
   */
  public record Delete(CurrentRecord current, ChangeReason reason) implements Change {
    public Delete {
      Objects.requireNonNull(current, "current");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public ObjectKey key() {
      return current.key();
    }
  }
}
