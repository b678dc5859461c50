package dev.cairn.dnsresponder.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.answer.ServingState;
import dev.cairn.dnsresponder.store.ZoneCache;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

class ResponderHealthIndicatorTest {

  private static final Instant BUILT = Instant.parse("2026-12-02T12:00:00Z");

  @Test
  void aSyncedViewWhoseLatestRebuildFailedSaysThatTheLatestChangesAreNotServed() {
    var health =
        ResponderHealthIndicator.health(
            new ZoneCache.Status(
                ServingState.SYNCED,
                BUILT,
                2,
                20,
                0,
                "the snapshot would hold 22 records, more than responder.max-records (20)",
                true,
                null));

    assertThat(health.getStatus()).isEqualTo(Status.UP);
    assertThat(health.getDetails().get("detail").toString())
        .contains("the latest changes are not served");
    assertThat(health.getDetails()).containsKey("lastRebuildFailure");
  }

  @Test
  void aSyncedViewSaysItServesTheClustersDnsEndpoints() {
    var health =
        ResponderHealthIndicator.health(
            new ZoneCache.Status(ServingState.SYNCED, BUILT, 2, 20, 0, null, true, null));

    assertThat(health.getDetails())
        .containsEntry("detail", "serving the cluster's DNSEndpoints")
        .doesNotContainKey("lastRebuildFailure");
  }
}
