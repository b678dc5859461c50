package dev.cairn.recordwriter.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.commonmodel.delegation.DelegationZone;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelegationSettingsTest {

  private static final List<DelegationZone> CLOUD =
      List.of(new DelegationZone("example.com", "cloud.example.com"));

  private static WriterProperties.Delegation delegation(
      List<DelegationZone> zones,
      String prefix,
      String geoTag,
      List<String> peers,
      List<String> addresses,
      String service,
      Duration ttl) {
    return new WriterProperties.Delegation(
        true, zones, prefix, geoTag, peers, addresses, service, null, ttl);
  }

  @Test
  void offNeedsNothing() {
    assertThat(
            new WriterProperties.Delegation(
                    false, List.of(), "gslb-ns-", null, List.of(), List.of(), null, null, null)
                .enabled())
        .isFalse();
  }

  @Test
  void onTakesAddressesOrAService() {
    assertThat(
            delegation(
                    CLOUD,
                    "gslb-ns-",
                    "eu",
                    List.of("us"),
                    List.of("192.0.2.53"),
                    null,
                    Duration.ofSeconds(30))
                .zones())
        .hasSize(1);
    assertThat(
            delegation(
                    CLOUD,
                    "",
                    "eu",
                    List.of(),
                    List.of(),
                    "cairn-dns-responder-dns",
                    Duration.ofSeconds(30))
                .service())
        .isEqualTo("cairn-dns-responder-dns");
  }

  @Test
  void everyBadValueIsNamedAtOnce() {
    assertThatThrownBy(
            () ->
                delegation(
                    List.of(),
                    "gslb_ns",
                    "e u",
                    List.of("u s"),
                    List.of("ns.example.com"),
                    null,
                    Duration.ofMillis(1500)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("writer.delegation.zones needs at least one zone")
        .hasMessageContaining("writer.delegation.glue-prefix may hold only")
        .hasMessageContaining("writer.delegation.geo-tag is required")
        .hasMessageContaining("writer.delegation.peer-geo-tags[0] is not a geo tag: 'u s'")
        .hasMessageContaining("writer.delegation.addresses[0] is not an IPv4 or IPv6 literal")
        .hasMessageContaining("writer.delegation.ttl must be whole seconds");
  }

  @Test
  void needsSomewhereToTakeTheAddressesFrom() {
    assertThatThrownBy(
            () ->
                delegation(
                    CLOUD, "gslb-ns-", "eu", List.of(), List.of(), " ", Duration.ofSeconds(30)))
        .hasMessageContaining("writer.delegation needs addresses or service");
  }

  @Test
  void aNameServerNameThatIsNoHostNameIsRefused() {
    String longTag = "a".repeat(63);
    List<DelegationZone> zone =
        List.of(new DelegationZone("example.com", "b".repeat(60) + ".example.com"));

    assertThatThrownBy(
            () ->
                delegation(
                    zone,
                    "gslb-ns-",
                    longTag,
                    List.of(),
                    List.of("192.0.2.1"),
                    null,
                    Duration.ofSeconds(30)))
        .hasMessageContaining("is not a valid host name");
  }
}
