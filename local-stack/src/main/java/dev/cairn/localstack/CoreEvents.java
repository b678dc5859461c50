package dev.cairn.localstack;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The core {@code v1} view of {@code events.k8s.io/v1} Events, as the API server serves one Event
 * through both APIs: Cairn's record-writer records its Events with {@code events.k8s.io/v1}, while
 * {@code kubectl describe} and {@code kubectl get events} read them as core {@code v1} Events. The
 * fields map as the API server converts them ({@code regarding} and {@code involvedObject}, {@code
 * note} and {@code message}, {@code reportingController} and {@code reportingComponent}, the {@code
 * deprecated*} fields and their core names); field selectors are matched on the core view.
 */
final class CoreEvents {

  private CoreEvents() {}

  /** The core {@code v1} form of an {@code events.k8s.io/v1} Event. */
  static ObjectNode toCore(JsonNode event) {
    ObjectNode core = JsonNodeFactory.instance.objectNode();
    core.put("apiVersion", "v1");
    core.put("kind", "Event");
    copy(event, "metadata", core, "metadata");
    copy(event, "regarding", core, "involvedObject");
    copy(event, "related", core, "related");
    copy(event, "reason", core, "reason");
    copy(event, "note", core, "message");
    copy(event, "type", core, "type");
    copy(event, "action", core, "action");
    copy(event, "eventTime", core, "eventTime");
    copy(event, "series", core, "series");
    copy(event, "reportingController", core, "reportingComponent");
    copy(event, "reportingInstance", core, "reportingInstance");
    copy(event, "deprecatedSource", core, "source");
    copy(event, "deprecatedFirstTimestamp", core, "firstTimestamp");
    copy(event, "deprecatedLastTimestamp", core, "lastTimestamp");
    copy(event, "deprecatedCount", core, "count");
    return core;
  }

  private static void copy(JsonNode from, String field, ObjectNode to, String as) {
    JsonNode value = from.get(field);
    if (value != null && !value.isNull()) {
      to.set(as, value);
    }
  }

  /**
   * One term of a field selector: {@code field=value}, {@code field==value} or {@code
   * field!=value}.
   */
  record Term(String field, String value, boolean equal) {

    /** True when the object's field (a dotted path; missing reads as "") satisfies the term. */
    boolean matches(JsonNode object) {
      JsonNode node = object;
      for (String part : field.split("\\.")) {
        node = node == null ? null : node.get(part);
      }
      String actual = node == null || node.isNull() ? "" : node.asString();
      return actual.equals(value) == equal;
    }
  }

  /**
   * The terms of a field selector ({@code null} or empty: none).
   *
   * @throws IllegalArgumentException for a term without an operator
   */
  static List<Term> parse(String selector) {
    List<Term> terms = new ArrayList<>();
    if (selector == null || selector.isBlank()) {
      return terms;
    }
    for (String term : selector.split(",")) {
      int not = term.indexOf("!=");
      int eq = term.indexOf('=');
      if (not > 0) {
        terms.add(new Term(term.substring(0, not).trim(), term.substring(not + 2).trim(), false));
      } else if (eq > 0) {
        int end = term.startsWith("==", eq) ? eq + 2 : eq + 1;
        terms.add(new Term(term.substring(0, eq).trim(), term.substring(end).trim(), true));
      } else {
        throw new IllegalArgumentException("field selector term without an operator: " + term);
      }
    }
    return terms;
  }

  /** True when the object satisfies every term. */
  static boolean matches(List<Term> terms, JsonNode object) {
    for (Term term : terms) {
      if (!term.matches(object)) {
        return false;
      }
    }
    return true;
  }
}
