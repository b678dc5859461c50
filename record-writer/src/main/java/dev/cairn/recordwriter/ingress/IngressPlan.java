package dev.cairn.recordwriter.ingress;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.ingress.EmbeddingGslb.Shape;
import dev.cairn.recordwriter.ingress.LiveIngress.OwnerRef;
import dev.cairn.recordwriter.plan.ObjectKey;
import dev.cairn.recordwriter.plan.Ownership;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The embedded Ingress of a Gslb (k8gb.md §1.5): a Gslb without {@code spec.resourceRef} balances
 * the Ingress that k8gb creates from its {@code spec.ingress}, of the Gslb's name and namespace,
 * labelled {@value #K8GB_MANAGED_BY_LABEL}={@value #K8GB_MANAGED_BY_VALUE} and controlled by the
 * Gslb. Its load-balancer status, filled in by the ingress controller, is the cluster's local
 * targets. This plan decides, for one name, what to write; it reads no API and sends nothing.
 *
 * <p>Where Cairn differs from k8gb, on purpose:
 *
 * <ul>
 *   <li>An Ingress of that name that is not controlled by a Gslb of that name is left alone and
 *       reported ({@link Action#CONFLICT}); k8gb overwrote its spec.
 *   <li>Fields that the API server or an admission plugin set (the default IngressClass's {@code
 *       ingressClassName}) are kept: the spec sent is a three-way merge of the live spec, the spec
 *       Cairn last applied (kept in the {@value #LAST_APPLIED_ANNOTATION} annotation) and the
 *       desired one, as {@code kubectl apply} does; k8gb replaced the whole spec.
 *   <li>A Gslb that stops embedding its ingress (it gets a resourceRef) has its Ingress deleted,
 *       unless the resourceRef names that very Ingress: then it is released (Cairn's labels, owner
 *       reference and annotation removed, the spec untouched; {@value #RELEASED_FROM_ANNOTATION}
 *       names the Gslb, which takes it back if it embeds its ingress again). k8gb left it in place
 *       until the Gslb was deleted.
 *   <li>An invalid Gslb (neither a resourceRef nor an object in {@code spec.ingress}) changes
 *       nothing: a bad object never deletes what was good.
 * </ul>
 *
 * @param key the Gslb's and the Ingress's namespace and name
 * @param action what to do
 * @param body for {@link Action#CREATE}, {@link Action#UPDATE} and {@link Action#RELEASE}: the
 *     Ingress to send; otherwise {@code null}
 * @param version the resourceVersion an update or delete is conditional on, {@code null} for none
 * @param uid the uid of the Ingress to delete (a precondition), {@code null} for none
 * @param detail one sentence on why
 * @param problem what the Gslb's owner must see (a Warning Event), {@code null} for nothing
 */
public record IngressPlan(
    ObjectKey key,
    Action action,
    Body body,
    String version,
    String uid,
    String detail,
    Problem problem) {

  /** k8gb's label on the Ingress it creates for a Gslb. */
  public static final String K8GB_MANAGED_BY_LABEL = "app.k8gb.io/managed-by";

  /** The value of {@link #K8GB_MANAGED_BY_LABEL}. */
  public static final String K8GB_MANAGED_BY_VALUE = "gslb";

  /** The annotation holding, as JSON, the {@code spec.ingress} Cairn last applied. */
  public static final String LAST_APPLIED_ANNOTATION = "cairn.dev/last-applied-ingress-spec";

  /**
   * The annotation a released Ingress keeps: the uid of the Gslb that released it, so that the same
   * Gslb embedding its ingress again takes it back instead of finding it someone else's.
   */
  public static final String RELEASED_FROM_ANNOTATION = "cairn.dev/released-from-gslb";

  /** The API group of Gslbs. */
  public static final String GSLB_GROUP = "k8gb.io";

  /** The apiVersion of the owner reference written. */
  public static final String GSLB_API_VERSION = GSLB_GROUP + "/v1beta1";

  /** What to do with one name. */
  public enum Action {
    /** No Ingress exists: create it. */
    CREATE,
    /** The Ingress is Cairn's and differs from the Gslb's {@code spec.ingress}: update it. */
    UPDATE,
    /** The Gslb's resourceRef now names the Ingress: remove Cairn's marks, keep the rest. */
    RELEASE,
    /** The Gslb is gone or references another object: delete the Ingress Cairn created. */
    DELETE,
    /** The Ingress is as the Gslb wants it. */
    IN_SYNC,
    /** The Gslb is invalid: the Ingress is left as it is. */
    KEEP,
    /** An Ingress of that name exists and is not Cairn's: left alone, reported on the Gslb. */
    CONFLICT,
    /** Nothing to do: no embedded ingress is wanted, and none of Cairn's exists. */
    NONE
  }

  /**
   * The Ingress to send.
   *
   * @param labels its labels
   * @param annotations its annotations, without {@value #LAST_APPLIED_ANNOTATION}
   * @param owners its owner references
   * @param spec its spec
   * @param lastApplied the value of {@value #LAST_APPLIED_ANNOTATION} (rendered as JSON by the
   *     adapter), {@code null} to leave the annotation out
   */
  public record Body(
      Map<String, String> labels,
      Map<String, String> annotations,
      List<OwnerRef> owners,
      Object spec,
      Object lastApplied) {
    public Body {
      labels = Map.copyOf(labels);
      annotations = Map.copyOf(annotations);
      owners = List.copyOf(owners);
    }
  }

  public IngressPlan {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(detail, "detail");
    boolean writes = action == Action.CREATE || action == Action.UPDATE || action == Action.RELEASE;
    if (writes != (body != null)) {
      throw new IllegalArgumentException("a body goes with CREATE, UPDATE and RELEASE only");
    }
  }

  /** True when the plan sends something. */
  public boolean writes() {
    return body != null || action == Action.DELETE;
  }

  /**
   * Plans one name.
   *
   * @param key the name planned
   * @param gslb the Gslb of that name, {@code null} when none exists
   * @param live the Ingress of that name, {@code null} when none exists
   */
  public static IngressPlan plan(ObjectKey key, EmbeddingGslb gslb, LiveIngress live) {
    Shape shape = gslb == null ? Shape.REFERENCE : gslb.shape();
    boolean ours = live != null && isOurs(key, live);
    return switch (shape) {
      case EMBEDDED -> embedded(key, gslb, live, ours);
      case INVALID ->
          ours
              ? of(
                  key,
                  Action.KEEP,
                  "the Gslb has neither spec.resourceRef nor an object in spec.ingress; its"
                      + " Ingress is kept as it is")
              : of(key, Action.NONE, "the Gslb embeds no usable ingress");
      case REFERENCE -> {
        if (!ours) {
          yield of(
              key,
              Action.NONE,
              gslb == null ? "no Gslb of this name" : "the Gslb references an object");
        }
        if (gslb != null && gslb.refersToOwnIngress()) {
          yield release(key, live, gslb);
        }
        if (!K8GB_MANAGED_BY_VALUE.equals(live.labels().get(K8GB_MANAGED_BY_LABEL))) {
          yield of(
              key,
              Action.NONE,
              "the Ingress is controlled by a Gslb of this name but lacks the label "
                  + K8GB_MANAGED_BY_LABEL
                  + "="
                  + K8GB_MANAGED_BY_VALUE
                  + "; not deleted");
        }
        yield new IngressPlan(
            key,
            Action.DELETE,
            null,
            live.version(),
            live.uid(),
            gslb == null
                ? "the Gslb is gone; deleting the Ingress created for it"
                : "the Gslb references another object now; deleting the Ingress created from its"
                    + " spec.ingress",
            null);
      }
    };
  }

  private static IngressPlan embedded(
      ObjectKey key, EmbeddingGslb gslb, LiveIngress live, boolean ours) {
    if (gslb.uid() == null || gslb.uid().isBlank()) {
      return of(key, Action.NONE, "the Gslb has no uid yet");
    }
    // An Ingress this very Gslb released, embedded again: taken back.
    boolean mine = ours || (live != null && releasedBy(live, gslb));
    OwnerRef owner = new OwnerRef(GSLB_API_VERSION, "Gslb", key.name(), gslb.uid(), true, true);
    Object desired = gslb.ingress();
    if (live == null) {
      Map<String, String> labels = new LinkedHashMap<>();
      labels.put(K8GB_MANAGED_BY_LABEL, K8GB_MANAGED_BY_VALUE);
      labels.put(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE);
      return new IngressPlan(
          key,
          Action.CREATE,
          new Body(labels, Map.of(), List.of(owner), desired, desired),
          null,
          null,
          "no Ingress of the Gslb's name exists; creating it from spec.ingress",
          null);
    }
    if (!mine) {
      OwnerRef controller = live.controller();
      String holder =
          controller == null
              ? "it has no controller"
              : "its controller is "
                  + controller.kind()
                  + " "
                  + controller.name()
                  + " ("
                  + controller.apiVersion()
                  + ")";
      return new IngressPlan(
          key,
          Action.CONFLICT,
          null,
          null,
          null,
          "an Ingress of the Gslb's name exists and is not controlled by the Gslb (" + holder + ")",
          new Problem(
              "spec.ingress",
              "Ingress " + key,
              "an Ingress of the Gslb's name exists and is not controlled by this Gslb ("
                  + holder
                  + "); Cairn leaves it alone and publishes no load-balancer address for the"
                  + " Gslb. Rename or delete that Ingress, or reference it with"
                  + " spec.resourceRef"));
    }
    List<String> differences = new ArrayList<>();
    OwnerRef controller = live.controller();
    if (controller == null || !Objects.equals(controller.uid(), gslb.uid())) {
      differences.add("owner reference");
    }
    if (live.annotations().containsKey(RELEASED_FROM_ANNOTATION)) {
      differences.add("released before");
    }
    if (!K8GB_MANAGED_BY_VALUE.equals(live.labels().get(K8GB_MANAGED_BY_LABEL))
        || !Ownership.isOwned(live.labels())) {
      differences.add("labels");
    }
    if (!SpecTrees.same(live.lastApplied(), desired)) {
      differences.add("spec.ingress changed");
    }
    if (!SpecTrees.covers(live.spec(), desired)) {
      differences.add("spec");
    }
    if (differences.isEmpty()) {
      return of(key, Action.IN_SYNC, "the Ingress matches spec.ingress");
    }
    Map<String, String> labels = new LinkedHashMap<>(live.labels());
    labels.put(K8GB_MANAGED_BY_LABEL, K8GB_MANAGED_BY_VALUE);
    labels.put(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE);
    List<OwnerRef> owners = new ArrayList<>();
    for (OwnerRef o : live.owners()) {
      if (!o.isGslb(key.name())) {
        owners.add(o);
      }
    }
    owners.add(owner);
    Map<String, String> annotations = withoutLastApplied(live.annotations());
    annotations.remove(RELEASED_FROM_ANNOTATION);
    return new IngressPlan(
        key,
        Action.UPDATE,
        new Body(
            labels,
            annotations,
            owners,
            SpecTrees.threeWay(live.spec(), live.lastApplied(), desired),
            desired),
        live.version(),
        null,
        "the Ingress differs from spec.ingress (" + String.join(", ", differences) + ")",
        null);
  }

  private static IngressPlan release(ObjectKey key, LiveIngress live, EmbeddingGslb gslb) {
    Map<String, String> labels = new LinkedHashMap<>(live.labels());
    labels.remove(K8GB_MANAGED_BY_LABEL, K8GB_MANAGED_BY_VALUE);
    labels.remove(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY_VALUE);
    List<OwnerRef> owners = new ArrayList<>();
    for (OwnerRef o : live.owners()) {
      if (!o.isGslb(key.name())) {
        owners.add(o);
      }
    }
    return new IngressPlan(
        key,
        Action.RELEASE,
        new Body(labels, released(live.annotations(), gslb), owners, live.spec(), null),
        live.version(),
        null,
        "the Gslb's resourceRef names this Ingress now; releasing it (Cairn's labels and owner"
            + " reference removed, the spec kept; embedding it again takes it back)",
        null);
  }

  /** True when the Ingress is controlled by a Gslb of its own name. */
  private static boolean isOurs(ObjectKey key, LiveIngress live) {
    OwnerRef controller = live.controller();
    return controller != null && controller.isGslb(key.name());
  }

  /** The annotations of a released Ingress: without Cairn's, with the releasing Gslb's uid. */
  private static Map<String, String> released(Map<String, String> annotations, EmbeddingGslb gslb) {
    Map<String, String> out = withoutLastApplied(annotations);
    if (gslb.uid() != null && !gslb.uid().isBlank()) {
      out.put(RELEASED_FROM_ANNOTATION, gslb.uid());
    }
    return out;
  }

  /** True when this Gslb released the Ingress and nothing controls it since. */
  private static boolean releasedBy(LiveIngress live, EmbeddingGslb gslb) {
    return live.controller() == null
        && gslb.uid().equals(live.annotations().get(RELEASED_FROM_ANNOTATION));
  }

  private static Map<String, String> withoutLastApplied(Map<String, String> annotations) {
    Map<String, String> out = new LinkedHashMap<>(annotations);
    out.remove(LAST_APPLIED_ANNOTATION);
    return out;
  }

  private static IngressPlan of(ObjectKey key, Action action, String detail) {
    return new IngressPlan(key, action, null, null, null, detail, null);
  }
}
