package dev.cairn.recordwriter.health;

import dev.cairn.recordwriter.leader.LeaderElection;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** Always UP (a standby is healthy); tells whether this instance is the writer and who is. */
public final class LeadershipHealthIndicator implements HealthIndicator {

  private final LeaderElection election;

  /** Reports on this election. */
  public LeadershipHealthIndicator(LeaderElection election) {
    this.election = election;
  }

  @Override
  public Health health() {
    Health.Builder b =
        Health.up()
            .withDetail("enabled", election.enabled())
            .withDetail("leader", election.isLeader())
            .withDetail("identity", election.identity());
    if (election.holder() != null) {
      b.withDetail("holder", election.holder());
    }
    return b.build();
  }
}
