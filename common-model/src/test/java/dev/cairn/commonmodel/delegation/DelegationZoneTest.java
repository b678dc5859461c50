package dev.cairn.commonmodel.delegation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DelegationZoneTest {

  @Test
  void namesTheNameServerOfAClusterAsK8gbDoes() {
    DelegationZone zone = new DelegationZone("example.com", "cloud.example.com");

    assertThat(zone.nsName("gslb-ns-", "eu")).isEqualTo("gslb-ns-eu-cloud.example.com");
  }

  @Test
  void dashesEveryLabelBelowTheParent() {
    DelegationZone zone =
        new DelegationZone("cloud.example.com", "k8gb-test.gslb.cloud.example.com");

    assertThat(zone.nsName("gslb-ns-", "us"))
        .isEqualTo("gslb-ns-us-k8gb-test-gslb.cloud.example.com");
  }

  @Test
  void readsTheGeoTagBackFromANameServerName() {
    DelegationZone zone = new DelegationZone("a.b.c.d", "test-podinfo-foo-blah-gslb.a.b.c.d");

    assertThat(zone.geoTagOf("gslb-ns-", "gslb-ns-1-test-test-podinfo-foo-blah-gslb.a.b.c.d."))
        .contains("1-test");
    assertThat(zone.geoTagOf("", "eu-test-podinfo-foo-blah-gslb.a.b.c.d")).contains("eu");
    assertThat(zone.geoTagOf("gslb-ns-", "ns1.a.b.c.d")).isEmpty();
    assertThat(zone.geoTagOf("gslb-ns-", "other-test-podinfo-foo-blah-gslb.a.b.c.d")).isEmpty();
  }

  @Test
  void normalisesBothZones() {
    DelegationZone zone = new DelegationZone("Example.COM.", "Cloud.Example.com.");

    assertThat(zone).isEqualTo(new DelegationZone("example.com", "cloud.example.com"));
  }

  @Test
  void rejectsALoadBalancedZoneOutsideTheParent() {
    assertThatThrownBy(() -> new DelegationZone("example.com", "cloud.example.org"))
        .hasMessageContaining("must lie below parent-zone");
    assertThatThrownBy(() -> new DelegationZone("example.com", "example.com"))
        .hasMessageContaining("must lie below parent-zone");
  }
}
