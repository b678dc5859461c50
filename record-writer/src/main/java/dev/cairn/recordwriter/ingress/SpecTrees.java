package dev.cairn.recordwriter.ingress;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Comparing and merging JSON trees (maps, lists, strings, numbers, booleans, {@code null}) as they
 * come from the API: the rules by which the embedded Ingress is kept in line with the Gslb's {@code
 * spec.ingress} without fighting the API server or its admission plugins.
 *
 * <ul>
 *   <li>{@link #same}: equal as JSON (an {@code Integer} 80 equals a {@code Long} 80).
 *   <li>{@link #covers}: every field the desired tree sets has that value in the live tree; fields
 *       only the live tree has (defaults the API server or an admission plugin filled in, such as
 *       {@code ingressClassName} from the default IngressClass) do not count as a difference.
 *   <li>{@link #threeWay}: the object to send, as {@code kubectl apply} computes it: the desired
 *       fields, the fields set by others kept, and the fields Cairn set before but no longer wants
 *       removed. Lists are replaced whole (an Ingress's lists have no merge keys).
 * </ul>
 */
final class SpecTrees {

  private SpecTrees() {}

  /** True when the two trees are equal as JSON. */
  static boolean same(Object a, Object b) {
    if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
      if (ma.size() != mb.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : ma.entrySet()) {
        if (!mb.containsKey(e.getKey()) || !same(e.getValue(), mb.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List<?> la && b instanceof List<?> lb) {
      if (la.size() != lb.size()) {
        return false;
      }
      for (int i = 0; i < la.size(); i++) {
        if (!same(la.get(i), lb.get(i))) {
          return false;
        }
      }
      return true;
    }
    return sameScalar(a, b);
  }

  /**
   * True when every field set in {@code desired} has the same value in {@code live}. Inside lists
   * the items are compared in order and the lists must be as long, each item by the same rule.
   */
  static boolean covers(Object live, Object desired) {
    if (desired instanceof Map<?, ?> md) {
      if (!(live instanceof Map<?, ?> ml)) {
        return false;
      }
      for (Map.Entry<?, ?> e : md.entrySet()) {
        if (e.getValue() == null) {
          if (ml.get(e.getKey()) != null) {
            return false;
          }
        } else if (!ml.containsKey(e.getKey()) || !covers(ml.get(e.getKey()), e.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (desired instanceof List<?> ld) {
      if (!(live instanceof List<?> ll) || ll.size() != ld.size()) {
        return false;
      }
      for (int i = 0; i < ld.size(); i++) {
        if (!covers(ll.get(i), ld.get(i))) {
          return false;
        }
      }
      return true;
    }
    return sameScalar(live, desired);
  }

  /**
   * The tree to send: {@code desired}, with the fields of {@code live} that {@code lastApplied} did
   * not set kept where {@code desired} does not set them either. {@code lastApplied} may be {@code
   * null} (nothing known to be Cairn's: every live field not desired is kept).
   */
  static Object threeWay(Object live, Object lastApplied, Object desired) {
    if (desired instanceof Map<?, ?> md && live instanceof Map<?, ?> ml) {
      Map<?, ?> last = lastApplied instanceof Map<?, ?> m ? m : Map.of();
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ml.entrySet()) {
        String key = String.valueOf(e.getKey());
        if (!md.containsKey(key) && !last.containsKey(key)) {
          out.put(key, e.getValue()); // set by someone else: kept
        }
      }
      for (Map.Entry<?, ?> e : md.entrySet()) {
        String key = String.valueOf(e.getKey());
        out.put(key, threeWay(ml.get(key), last.get(key), e.getValue()));
      }
      return out;
    }
    return desired;
  }

  private static boolean sameScalar(Object a, Object b) {
    if (a instanceof Number na && b instanceof Number nb) {
      return decimal(na).compareTo(decimal(nb)) == 0;
    }
    return Objects.equals(a, b);
  }

  private static BigDecimal decimal(Number n) {
    return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
  }
}
