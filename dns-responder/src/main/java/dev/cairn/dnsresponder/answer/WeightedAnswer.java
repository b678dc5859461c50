package dev.cairn.dnsresponder.answer;

/** How answers are drawn from a weighted address set ({@code responder.weighted-answer}). */
public enum WeightedAnswer {
  /**
   * One address per answer: a tag is drawn with probability weight/Σweights (zero-weight tags only
   * when every weight is zero), then an address uniformly within the tag. Clients then really split
   * traffic by weight, whatever they do with the order of several records.
   */
  ONE,
  /**
   * Every address, ordered by weighted sampling of tags without replacement (zero-weight tags
   * last), addresses shuffled within a tag. This is k8gb's CoreDNS behaviour, for clients that
   * honour the order.
   */
  ALL_ORDERED
}
