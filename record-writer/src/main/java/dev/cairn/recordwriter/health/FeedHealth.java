package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.kafka.StateFeed;
import org.springframework.boot.health.contributor.Health;

/**
 * The health of a state-topic feed: DOWN when its reader stopped on a newer schema version (nothing
 * past it is applied), OUT_OF_SERVICE until the topic has been read to its end (until then nothing
 * is written), UP after.
 */
final class FeedHealth {

  private FeedHealth() {}

  /**
   * The feed's state with the {@code topic} and {@code caughtUp} details; the caller adds its own.
   *
   * @param topicName how the reason names the topic ("decisions topic")
   */
  static Health.Builder of(StateFeed<?> feed, String topicName) {
    Health.Builder builder;
    String blocked = feed.blockedReason();
    if (blocked != null) {
      builder = Health.down().withDetail("blockedReason", blocked);
    } else if (!feed.caughtUp()) {
      builder = Health.outOfService().withDetail("reason", "catching up with the " + topicName);
    } else {
      builder = Health.up();
    }
    return builder.withDetail("topic", feed.topic()).withDetail("caughtUp", feed.caughtUp());
  }
}
