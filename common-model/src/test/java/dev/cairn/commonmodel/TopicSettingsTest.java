package dev.cairn.commonmodel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TopicSettingsTest {

  @Test
  void defaultsToNoPrefixOnePartitionOneReplica() {
    TopicSettings defaults = TopicSettings.defaults();

    assertThat(defaults).isEqualTo(new TopicSettings("", 1, (short) 1));
    assertThat(defaults.name(Topics.ROUTES)).isEqualTo("cairn.topology.routes.v1");
  }

  @Test
  void prefixesEveryTopicName() {
    TopicSettings eu = new TopicSettings("eu.", null, null);

    assertThat(Topics.ALL).allSatisfy(t -> assertThat(eu.name(t)).isEqualTo("eu." + t.name()));
  }

  @Test
  void declaresTopicsWithTheirCleanupPolicyPartitionsAndReplicas() {
    NewTopic topic = new TopicSettings("us-", 6, (short) 3).newTopic(Topics.DECISIONS);

    assertThat(topic.name()).isEqualTo("us-cairn.decision.targets.v1");
    assertThat(topic.numPartitions()).isEqualTo(6);
    assertThat(topic.replicationFactor()).isEqualTo((short) 3);
    assertThat(topic.configs()).isEqualTo(Map.of("cleanup.policy", "compact"));
    assertThat(topic.replicasAssignments()).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"eu.", "us-east_1.", "Staging-", "a"})
  void acceptsPrefixesOfTopicNameCharacters(String prefix) {
    assertThat(new TopicSettings(prefix, 1, (short) 1).prefix()).isEqualTo(prefix);
  }

  @ParameterizedTest
  @ValueSource(strings = {"eu/", "eu ", " eu.", "eu:", "ëu.", "eu*"})
  void rejectsPrefixesKafkaWouldNotAcceptNamingTheSetting(String prefix) {
    assertThatThrownBy(() -> new TopicSettings(prefix, 1, (short) 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topics.prefix")
        .hasMessageContaining("'" + prefix + "'");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1})
  void rejectsFewerThanOnePartition(int partitions) {
    assertThatThrownBy(() -> new TopicSettings("", partitions, (short) 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topics.partitions")
        .hasMessageContaining(Integer.toString(partitions));
  }

  @ParameterizedTest
  @ValueSource(shorts = {0, -1})
  void rejectsFewerThanOneReplica(short replicas) {
    assertThatThrownBy(() -> new TopicSettings("", 1, replicas))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topics.replication-factor")
        .hasMessageContaining(Short.toString(replicas));
  }
}
