package dev.cairn.localstack;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeType;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes label selector ({@code ?labelSelector=}) as the mock store's match attributes:
 * {@code k=v}, {@code k==v}, {@code k!=v}, {@code k}, {@code !k}, {@code k in (a,b)} and {@code k
 * notin (a,b)}, joined by commas. fabric8's attribute extractor knows only the first five and
 * ignores the set-based ones (so a list or watch with {@code in} would see every object); the
 * attributes use fabric8's {@code labels:<key>} names, so stored objects match them unchanged.
 */
final class LabelSelector {

  private static final String KEY = "([A-Za-z0-9][-A-Za-z0-9_./]*)";
  private static final String VALUE = "([-A-Za-z0-9_.]*)";
  private static final Pattern EQUALS = Pattern.compile(KEY + "\\s*==?\\s*" + VALUE);
  private static final Pattern NOT_EQUALS = Pattern.compile(KEY + "\\s*!=\\s*" + VALUE);
  private static final Pattern EXISTS = Pattern.compile(KEY);
  private static final Pattern NOT_EXISTS = Pattern.compile("!\\s*" + KEY);
  private static final Pattern SET = Pattern.compile(KEY + "\\s+(in|notin)\\s*\\(([^()]*)\\)");
  private static final Pattern SET_VALUE = Pattern.compile(VALUE);
  private static final String LABEL = "labels:";

  private LabelSelector() {}

  /**
   * The attributes of a selector; an empty selector selects everything.
   *
   * @throws IllegalArgumentException naming the requirement that is not a label requirement
   */
  static List<Attribute> parse(String selector) {
    List<Attribute> attributes = new ArrayList<>();
    for (String requirement : requirements(selector)) {
      attributes.add(requirement(requirement.trim(), selector));
    }
    return attributes;
  }

  private static Attribute requirement(String r, String selector) {
    Matcher m;
    if ((m = SET.matcher(r)).matches()) {
      List<String> values = new ArrayList<>();
      for (String v : m.group(3).split(",")) {
        String value = v.trim();
        if (!SET_VALUE.matcher(value).matches()) {
          throw invalid(r, selector);
        }
        values.add(value);
      }
      return new Attribute(
          LABEL + m.group(1),
          values,
          "in".equals(m.group(2)) ? AttributeType.IN : AttributeType.NOT_IN);
    }
    if ((m = NOT_EQUALS.matcher(r)).matches()) {
      return new Attribute(LABEL + m.group(1), m.group(2), AttributeType.WITHOUT);
    }
    if ((m = EQUALS.matcher(r)).matches()) {
      return new Attribute(LABEL + m.group(1), m.group(2), AttributeType.WITH);
    }
    if ((m = NOT_EXISTS.matcher(r)).matches()) {
      return new Attribute(LABEL + m.group(1), "", AttributeType.NOT_EXISTS);
    }
    if ((m = EXISTS.matcher(r)).matches()) {
      return new Attribute(LABEL + m.group(1), "", AttributeType.EXISTS);
    }
    throw invalid(r, selector);
  }

  /** The selector split at the commas outside parentheses, empty parts dropped. */
  private static List<String> requirements(String selector) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        addPart(parts, selector.substring(start, i));
        start = i + 1;
      }
      if (depth < 0 || depth > 1) {
        throw new IllegalArgumentException(
            "labelSelector \"" + selector + "\": unbalanced parentheses");
      }
    }
    if (depth != 0) {
      throw new IllegalArgumentException(
          "labelSelector \"" + selector + "\": unbalanced parentheses");
    }
    addPart(parts, selector.substring(start));
    return parts;
  }

  private static void addPart(List<String> parts, String part) {
    if (!part.isBlank()) {
      parts.add(part);
    }
  }

  private static IllegalArgumentException invalid(String requirement, String selector) {
    return new IllegalArgumentException(
        "labelSelector \"" + selector + "\": \"" + requirement + "\" is not a label requirement");
  }
}
