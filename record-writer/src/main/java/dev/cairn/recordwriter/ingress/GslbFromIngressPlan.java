package dev.cairn.recordwriter.ingress;

import dev.cairn.commonmodel.validation.Problem;
import dev.cairn.recordwriter.ingress.LiveIngress.OwnerRef;
import dev.cairn.recordwriter.plan.ObjectKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * k8gb's Ingress-annotation mode (k8gb.md §1.6): an Ingress annotated {@value #STRATEGY} that is
 * not a Gslb's own gets a Gslb of its name and namespace, controlled by the Ingress, whose {@code
 * spec.resourceRef} names the Ingress and whose strategy comes from the annotations: the type from
 * {@value #STRATEGY}, {@code dnsTtlSeconds} from {@value #DNS_TTL_SECONDS} (30 when absent), {@code
 * primaryGeoTag} from {@value #PRIMARY_GEO_TAG} (required for failover), and the Ingress's {@value
 * #EXPOSED_IPS} annotation on the Gslb. This plan decides, for one name, what to write; it reads no
 * API and sends nothing.
 *
 * <p>Where Cairn differs from k8gb, on purpose:
 *
 * <ul>
 *   <li>A Gslb of that name that the Ingress does not control is left alone and reported ({@link
 *       Action#CONFLICT}); k8gb replaced its spec when it had no controller.
 *   <li>Only what the annotations say is written: the strategy's other fields ({@code weight}, as
 *       in k8gb, but also {@code splitBrainThresholdSeconds}), {@code serviceHealthPolicy}, and the
 *       Gslb's labels and other annotations are kept; k8gb rebuilt the spec from the annotations
 *       and kept only the weights.
 *   <li>The Gslb follows the Ingress's {@value #EXPOSED_IPS} annotation both ways: removed from the
 *       Ingress, it is removed from the Gslb; k8gb only ever set it.
 *   <li>Nothing is written when nothing changed; k8gb updated the Gslb on every Ingress event.
 *   <li>Annotations Cairn cannot use (an unknown strategy, a TTL that is not a whole number,
 *       failover without a primary) are reported on the Ingress and change nothing; k8gb logged
 *       them. Every annotation change is planned, not only those k8gb's update filter passed.
 * </ul>
 *
 * <p>As in k8gb, a Gslb stays when its Ingress loses the annotation (it is a Gslb like any other
 * from then on), and goes with its Ingress through Kubernetes' garbage collection (the owner
 * reference).
 *
 * @param key the Ingress's and the Gslb's namespace and name
 * @param action what to do
 * @param body for {@link Action#CREATE} and {@link Action#UPDATE}: the Gslb to send; otherwise
 *     {@code null}
 * @param version the resourceVersion an update is conditional on, {@code null} for a create
 * @param detail one sentence on why
 * @param problem what the Ingress's owner must see (a Warning Event), {@code null} for nothing
 */
public record GslbFromIngressPlan(
    ObjectKey key, Action action, Body body, String version, String detail, Problem problem) {

  /** The annotation that makes an Ingress a Gslb's: the strategy type. */
  public static final String STRATEGY = "k8gb.io/strategy";

  /** The record TTL in seconds. */
  public static final String DNS_TTL_SECONDS = "k8gb.io/dns-ttl-seconds";

  /** The failover strategy's primary geo tag. */
  public static final String PRIMARY_GEO_TAG = "k8gb.io/primary-geotag";

  /** The exposed IP addresses, copied to the Gslb, where the engine reads them. */
  public static final String EXPOSED_IPS = "k8gb.io/exposed-ip-addresses";

  /** k8gb's default TTL ({@code depresolver.DefaultTTLSeconds}). */
  public static final int DEFAULT_TTL_SECONDS = 30;

  /** The strategy types a Gslb may have. */
  public static final Set<String> STRATEGIES = Set.of("roundRobin", "failover", "geoip");

  private static final String INGRESS_API_VERSION = "networking.k8s.io/v1";
  private static final Pattern WHOLE_NUMBER = Pattern.compile("\\+?[0-9]{1,10}");

  /** What to do with one name. */
  public enum Action {
    /** Nothing to write: not annotated, a Gslb's own Ingress, or the Gslb is as it should be. */
    NONE,
    /** No Gslb exists: create it. */
    CREATE,
    /** The Gslb the Ingress controls differs from the annotations: update it. */
    UPDATE,
    /** A Gslb of that name exists and the Ingress does not control it: leave it, report it. */
    CONFLICT,
    /** The annotations cannot be used: write nothing, report it. */
    INVALID
  }

  /**
   * The Gslb to send.
   *
   * @param labels its labels (the live Gslb's, kept)
   * @param annotations its annotations
   * @param owners its owner references, the Ingress's controller reference among them
   * @param spec its {@code spec}
   */
  public record Body(
      Map<String, String> labels,
      Map<String, String> annotations,
      List<OwnerRef> owners,
      Map<String, Object> spec) {}

  public GslbFromIngressPlan {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(detail, "detail");
  }

  /** True when the plan sends a write. */
  public boolean writes() {
    return action == Action.CREATE || action == Action.UPDATE;
  }

  /**
   * Plans one name.
   *
   * @param ingress the Ingress of that name, {@code null} when there is none
   * @param gslb the Gslb of that name, {@code null} when there is none
   */
  public static GslbFromIngressPlan plan(ObjectKey key, LiveIngress ingress, LiveGslbObject gslb) {
    if (ingress == null) {
      return none(key, "no Ingress of this name");
    }
    String type = ingress.annotations().get(STRATEGY);
    if (type == null) {
      return none(key, "the Ingress has no " + STRATEGY + " annotation");
    }
    if (ingress.owners().stream().anyMatch(o -> "Gslb".equals(o.kind()))) {
      return none(key, "the Ingress is a Gslb's own (its embedded ingress)");
    }
    Problem invalid = check(ingress.annotations());
    if (invalid != null) {
      return new GslbFromIngressPlan(
          key,
          Action.INVALID,
          null,
          null,
          "the annotations cannot be used: " + invalid.field() + " " + invalid.reason(),
          invalid);
    }
    if (gslb == null) {
      return new GslbFromIngressPlan(
          key,
          Action.CREATE,
          desired(ingress, null),
          null,
          "create the Gslb of the annotated Ingress",
          null);
    }
    if (!controlledBy(gslb, ingress)) {
      Problem conflict =
          new Problem(
              "metadata.annotations[" + STRATEGY + "]",
              type,
              "Gslb "
                  + key
                  + " exists and this Ingress does not control it; it is left alone (delete it,"
                  + " or remove the annotation)");
      return new GslbFromIngressPlan(key, Action.CONFLICT, null, null, conflict.reason(), conflict);
    }
    Body body = desired(ingress, gslb);
    if (SpecTrees.same(body.spec(), gslb.spec())
        && body.annotations().equals(gslb.annotations())
        && body.owners().equals(gslb.owners())) {
      return none(key, "the Gslb follows the Ingress's annotations");
    }
    return new GslbFromIngressPlan(
        key,
        Action.UPDATE,
        body,
        gslb.version(),
        "update the Gslb to the Ingress's annotations",
        null);
  }

  private static GslbFromIngressPlan none(ObjectKey key, String detail) {
    return new GslbFromIngressPlan(key, Action.NONE, null, null, detail, null);
  }

  /** The first annotation Cairn cannot use, or {@code null}. */
  private static Problem check(Map<String, String> annotations) {
    String type = annotations.get(STRATEGY);
    if (!STRATEGIES.contains(type)) {
      return new Problem(
          "metadata.annotations[" + STRATEGY + "]",
          type,
          "is not a strategy: roundRobin, failover or geoip");
    }
    String ttl = annotations.get(DNS_TTL_SECONDS);
    if (ttl != null
        && (!WHOLE_NUMBER.matcher(ttl.strip()).matches()
            || Long.parseLong(ttl.strip()) > Integer.MAX_VALUE)) {
      return new Problem(
          "metadata.annotations[" + DNS_TTL_SECONDS + "]", ttl, "is not a whole number of seconds");
    }
    String primary = annotations.get(PRIMARY_GEO_TAG);
    if (type.equals("failover") && (primary == null || primary.isBlank())) {
      return new Problem(
          "metadata.annotations[" + PRIMARY_GEO_TAG + "]",
          primary,
          "is required by the failover strategy");
    }
    return null;
  }

  /** True when the Gslb's controller is an Ingress of its name (any uid: a re-created Ingress). */
  private static boolean controlledBy(LiveGslbObject gslb, LiveIngress ingress) {
    OwnerRef c = gslb.controller();
    return c != null
        && "Ingress".equals(c.kind())
        && c.apiVersion() != null
        && c.apiVersion().startsWith("networking.k8s.io/")
        && Objects.equals(c.name(), ingress.key().name());
  }

  private static Body desired(LiveIngress ingress, LiveGslbObject live) {
    Map<String, String> a = ingress.annotations();
    Map<String, Object> spec = live == null ? new LinkedHashMap<>() : copy(live.spec());
    spec.remove("ingress");
    Map<String, Object> ref = new LinkedHashMap<>();
    ref.put("apiVersion", INGRESS_API_VERSION);
    ref.put("kind", "Ingress");
    ref.put("name", ingress.key().name());
    spec.put("resourceRef", ref);
    Map<String, Object> strategy = copy(spec.get("strategy"));
    strategy.put("type", a.get(STRATEGY));
    String ttl = a.get(DNS_TTL_SECONDS);
    strategy.put(
        "dnsTtlSeconds", ttl == null ? DEFAULT_TTL_SECONDS : Integer.parseInt(stripSign(ttl)));
    String primary = a.get(PRIMARY_GEO_TAG);
    if (primary == null || primary.isBlank()) {
      strategy.remove("primaryGeoTag");
    } else {
      strategy.put("primaryGeoTag", primary.strip());
    }
    spec.put("strategy", strategy);

    Map<String, String> annotations =
        live == null ? new LinkedHashMap<>() : new LinkedHashMap<>(live.annotations());
    if (a.containsKey(EXPOSED_IPS)) {
      annotations.put(EXPOSED_IPS, a.get(EXPOSED_IPS));
    } else {
      annotations.remove(EXPOSED_IPS);
    }
    OwnerRef controller =
        new OwnerRef(
            INGRESS_API_VERSION, "Ingress", ingress.key().name(), ingress.uid(), true, true);
    List<OwnerRef> owners =
        live == null
            ? List.of(controller)
            : Stream.concat(
                    live.owners().stream().filter(o -> !o.controller()), Stream.of(controller))
                .toList();
    return new Body(live == null ? Map.of() : live.labels(), Map.copyOf(annotations), owners, spec);
  }

  private static String stripSign(String ttl) {
    String s = ttl.strip();
    return s.startsWith("+") ? s.substring(1) : s;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> copy(Object tree) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (tree instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put(String.valueOf(k), v));
    }
    return out;
  }
}
