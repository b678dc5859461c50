package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.kafka.DecisionsFeed;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN when the decisions reader stopped on a newer schema version (nothing past it is applied),
 * OUT_OF_SERVICE until the topic has been read to its end (until then nothing is written), UP
 * after.
 */
public final class DecisionsHealthIndicator implements HealthIndicator {

  private final DecisionsFeed feed;

  /** Reports on this feed. */
  public DecisionsHealthIndicator(DecisionsFeed feed) {
    this.feed = feed;
  }

  @Override
  public Health health() {
    Health.Builder builder;
    String blocked = feed.blockedReason();
    if (blocked != null) {
      builder = Health.down().withDetail("blockedReason", blocked);
    } else if (!feed.caughtUp()) {
      builder = Health.outOfService().withDetail("reason", "catching up with the decisions topic");
    } else {
      builder = Health.up();
    }
    return builder
        .withDetail("topic", feed.topic())
        .withDetail("caughtUp", feed.caughtUp())
        .withDetail("decisions", feed.size())
        .withDetail("malformedSkipped", feed.malformedCount())
        .build();
  }
}
