package dev.cairn.recordwriter.health;

import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.kafka.StateFeed;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * DOWN when the decisions reader stopped on a newer schema version (nothing past it is applied),
 * OUT_OF_SERVICE until the topic has been read to its end (until then nothing is written), UP
 * after.
 */
public final class DecisionsHealthIndicator implements HealthIndicator {

  private final StateFeed<TargetDecision> feed;

  /** Reports on this feed. */
  public DecisionsHealthIndicator(StateFeed<TargetDecision> feed) {
    this.feed = feed;
  }

  @Override
  public Health health() {
    return FeedHealth.of(feed, "decisions topic")
        .withDetail("decisions", feed.size())
        .withDetail("malformedSkipped", feed.malformedCount())
        .build();
  }
}
