package dev.cairn.strategyengine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.strategyengine.StrategyEngineApplication;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A stopped engine leaves its consumer group at once, so the instance that takes over (a restart, a
 * rolling update) gets the partitions without waiting for {@code session.timeout.ms}: Kafka Streams
 * closes its consumers without a LeaveGroup request unless asked to. The session timeout is set to
 * 60 s here, so a member that did not leave would stay in the group that long; the engine joins
 * without {@code group.instance.id} (static membership would keep the member as well).
 */
class LeaveGroupOnCloseIT {

  private static final String APPLICATION_ID = "leave-group-it";
  private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(60);

  private static EmbeddedKafkaKraftBroker broker;
  private static Admin admin;

  @BeforeAll
  static void startBroker() {
    broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.afterPropertiesSet();
    admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()));
  }

  @AfterAll
  static void stopBroker() {
    if (admin != null) {
      admin.close();
    }
    if (broker != null) {
      broker.destroy();
    }
  }

  @Test
  void aStoppedEngineLeavesItsGroupAndTheNextOneTakesOverWithoutWaiting() throws Exception {
    ConfigurableApplicationContext first = start();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(members()).hasSize(1));
    MemberDescription member = members().iterator().next();
    assertThat(member.groupInstanceId()).as("no static membership").isEmpty();

    first.close();

    await()
        .atMost(SESSION_TIMEOUT.dividedBy(3))
        .untilAsserted(() -> assertThat(members()).as("the engine left the group").isEmpty());

    try (ConfigurableApplicationContext second = start()) {
      EngineStates.await(second, SESSION_TIMEOUT.dividedBy(3), KafkaStreams.State.RUNNING);
      assertThat(members())
          .singleElement()
          .satisfies(m -> assertThat(m.consumerId()).isNotEqualTo(member.consumerId()));
      assertThat(members().iterator().next().assignment().topicPartitions()).isNotEmpty();
    }
  }

  private static ConfigurableApplicationContext start() {
    return StrategyEngineApplication.builder()
        .properties(
            "spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
            "spring.kafka.streams.properties.session.timeout.ms=" + SESSION_TIMEOUT.toMillis(),
            "spring.kafka.streams.cleanup.on-startup=true",
            "engine.application-id=" + APPLICATION_ID,
            "engine.state-dir=target/leave-group-it-state",
            "engine.gslb.geo-tag=eu",
            "engine.topics.prefix=leave.",
            "server.port=0")
        .run();
  }

  private static Collection<MemberDescription> members() throws Exception {
    try {
      return admin
          .describeConsumerGroups(List.of(APPLICATION_ID))
          .all()
          .get()
          .get(APPLICATION_ID)
          .members();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return List.of();
      }
      throw e;
    }
  }
}
