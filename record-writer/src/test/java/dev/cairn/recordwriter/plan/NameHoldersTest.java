package dev.cairn.recordwriter.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.recordwriter.plan.NameHolders.Claimant;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class NameHoldersTest {

  private static final ObjectKey A = ObjectKey.of("a", "web");
  private static final ObjectKey B = ObjectKey.of("b", "web");
  private static final Instant EARLY = Instant.parse("2026-11-01T00:00:00Z");
  private static final Instant LATE = Instant.parse("2026-11-30T00:00:00Z");

  @Test
  void theObjectThatServesTheNameKeepsItAgainstANewcomer() {
    assertThat(
            NameHolders.holder(List.of(new Claimant(A, null, false), new Claimant(B, LATE, true))))
        .isEqualTo(B);
    assertThat(
            NameHolders.holder(List.of(new Claimant(A, EARLY, false), new Claimant(B, LATE, true))))
        .isEqualTo(B);
  }

  @Test
  void amongObjectsThatServeItTheOldestKeepsIt() {
    assertThat(
            NameHolders.holder(List.of(new Claimant(A, LATE, true), new Claimant(B, EARLY, true))))
        .isEqualTo(B);
    assertThat(
            NameHolders.holder(List.of(new Claimant(B, EARLY, true), new Claimant(A, EARLY, true))))
        .isEqualTo(A);
  }

  @Test
  void withoutAnObjectServingItAnExistingOneThenTheFirstKeyKeepsIt() {
    assertThat(
            NameHolders.holder(List.of(new Claimant(A, null, false), new Claimant(B, LATE, false))))
        .isEqualTo(B);
    assertThat(
            NameHolders.holder(List.of(new Claimant(B, null, false), new Claimant(A, null, false))))
        .isEqualTo(A);
  }

  @Test
  void needsAClaimant() {
    assertThatThrownBy(() -> NameHolders.holder(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void namesCompareAsAServerLooksThemUp() {
    assertThat(new DnsName("WEB.Example.COM.", "a")).isEqualTo(new DnsName("web.example.com", "A"));
    assertThat(new DnsName("web.example.com", "A"))
        .isNotEqualTo(new DnsName("web.example.com", "AAAA"));
    assertThat(new DnsName("web.example.com", "A").toString()).isEqualTo("A web.example.com");
  }
}
