package dev.cairn.commonmodel.decision;

import dev.cairn.commonmodel.Copies;
import java.util.List;
import java.util.Objects;

/**
 * Why a decision came out as it did, for the explain API and for people reading the topic.
 *
 * @param summary one sentence: the outcome and the branch taken
 * @param backends the backend Services used ({@code namespace/name})
 * @param zones the backend zones found
 * @param candidateNodes the nodes whose targets were considered
 * @param chosenTargets the targets finally chosen
 * @param fallbacks the fallbacks taken, in order, each a sentence
 * @param skipped every input left out, with its reason
 */
public record Explanation(
    String summary,
    List<String> backends,
    List<String> zones,
    List<String> candidateNodes,
    List<String> chosenTargets,
    List<String> fallbacks,
    List<Skipped> skipped) {

  public Explanation {
    Objects.requireNonNull(summary, "summary");
    backends = Copies.list(backends);
    zones = Copies.list(zones);
    candidateNodes = Copies.list(candidateNodes);
    chosenTargets = Copies.list(chosenTargets);
    fallbacks = Copies.list(fallbacks);
    skipped = Copies.list(skipped);
  }

  /** An explanation with only a summary. */
  public static Explanation of(String summary) {
    return new Explanation(summary, null, null, null, null, null, null);
  }

  /**
   * An input that was not used.
   *
   * @param input what was skipped, e.g. {@code node worker-3} or {@code backendRef[1] other/svc}
   * @param reason why
   */
  public record Skipped(String input, String reason) {
    public Skipped {
      Objects.requireNonNull(input, "input");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
