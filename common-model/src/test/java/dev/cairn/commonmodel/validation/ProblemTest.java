package dev.cairn.commonmodel.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProblemTest {

  @Test
  void printsFieldValueAndReason() {
    Problem problem = new Problem("spec.hostnames[2]", "a_b.com", "label 'a_b' has '_'");

    assertThat(problem).hasToString("spec.hostnames[2]='a_b.com': label 'a_b' has '_'");
  }

  @Test
  void printsAMissingValueAsSuch() {
    assertThat(new Problem("spec.strategy.type", null, "is required"))
        .hasToString("spec.strategy.type=<missing>: is required");
  }

  @Test
  void canBePlacedUnderAParentField() {
    Problem problem = new Problem("hostnames[0]", "x", "bad").under("spec");

    assertThat(problem.field()).isEqualTo("spec.hostnames[0]");
    assertThat(problem.value()).isEqualTo("x");
  }

  @Test
  void needsAFieldAndAReason() {
    assertThatThrownBy(() -> new Problem(null, "x", "bad"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Problem("f", "x", null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void validationExceptionListsEveryProblem() {
    ValidationException e =
        new ValidationException(
            List.of(new Problem("a", "1", "too small"), new Problem("b", null, "missing")));

    assertThat(e).isInstanceOf(IllegalArgumentException.class);
    assertThat(e.getMessage()).isEqualTo("a='1': too small; b=<missing>: missing");
    assertThat(e.problems()).extracting(Problem::field).containsExactly("a", "b");
  }

  @Test
  void sameFieldAndValueIgnoresTheReason() {
    Problem watcher = new Problem("spec.strategy.dnsTtlSeconds", "-5", "must not be negative");
    assertThat(
            watcher.sameFieldAndValue(new Problem("spec.strategy.dnsTtlSeconds", "-5", "bounds")))
        .isTrue();
    assertThat(
            watcher.sameFieldAndValue(new Problem("spec.strategy.dnsTtlSeconds", "-6", "bounds")))
        .isFalse();
    assertThat(watcher.sameFieldAndValue(new Problem("spec.strategy.weight", "-5", "bounds")))
        .isFalse();
    assertThat(new Problem("spec", null, "a").sameFieldAndValue(new Problem("spec", null, "b")))
        .isTrue();
  }
}
