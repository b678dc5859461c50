package dev.cairn.commonmodel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TopicsTest {

  private static final Set<String> SERVICES =
      Set.of("topology-watcher", "health-prober", "strategy-engine", "record-writer");

  static List<TopicSpec<?>> all() {
    return Topics.ALL;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("all")
  void isNamedCairnDomainEntityV1(TopicSpec<?> topic) {
    assertThat(topic.name()).matches("cairn\\.[a-z]+(-[a-z]+)*\\.[a-z]+(-[a-z]+)*\\.v1");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("all")
  void isACompactedStateTopic(TopicSpec<?> topic) {
    assertThat(topic.compacted()).isTrue();
    assertThat(topic.cleanupPolicy()).isEqualTo("compact");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("all")
  void namesItsOneProducerAndKey(TopicSpec<?> topic) {
    assertThat(topic.producer()).isIn(SERVICES);
    assertThat(topic.key()).isNotBlank();
    assertThat(topic.valueType().isRecord()).isTrue();
  }

  @Test
  void namesAreUnique() {
    assertThat(Topics.ALL).extracting(TopicSpec::name).doesNotHaveDuplicates();
  }

  @Test
  void everyTopicConstantIsListedInAll() throws IllegalAccessException {
    List<Field> constants =
        Arrays.stream(Topics.class.getFields())
            .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getType() == TopicSpec.class)
            .toList();

    assertThat(constants).hasSize(Topics.ALL.size());
    for (Field constant : constants) {
      assertThat(Topics.ALL).as(constant.getName()).contains((TopicSpec<?>) constant.get(null));
    }
  }

  @Test
  void theNamesAreTheContract() {
    assertThat(Topics.ALL)
        .extracting(TopicSpec::name)
        .containsExactly(
            "cairn.topology.routes.v1",
            "cairn.topology.services.v1",
            "cairn.topology.endpoints.v1",
            "cairn.topology.nodes.v1",
            "cairn.topology.gslbs.v1",
            "cairn.topology.sync.v1",
            "cairn.health.peer-answers.v1",
            "cairn.health.hostname-resolutions.v1",
            "cairn.decision.targets.v1",
            "cairn.decision.gslb-status.v1");
  }
}
