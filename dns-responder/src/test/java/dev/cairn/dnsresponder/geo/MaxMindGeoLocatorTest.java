package dev.cairn.dnsresponder.geo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.dnsresponder.answer.GeoLocator;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MaxMindGeoLocatorTest {

  @TempDir Path dir;

  static MmdbWriter sampleDatabase() {
    return new MmdbWriter()
        .add(
            "203.0.113.0/24",
            Map.of(
                "datacenter", "eu",
                "country", Map.of("iso_code", "DE"),
                "continent", Map.of("code", "EU")))
        .add("198.51.100.0/25", Map.of("datacenter", "us", "continent", Map.of("code", "NA")))
        .add("192.0.2.0/28", Map.of("datacenter", "eu"))
        .add("192.0.2.16/28", Map.of("datacenter", "us"))
        .add("2001:db8:e0::/48", Map.of("datacenter", "eu"));
  }

  private static InetAddress ip(String text) throws Exception {
    return InetAddress.getByName(text);
  }

  @Test
  void looksUpFieldsAndNestedPathsWithTheNetworkPrefix() throws Exception {
    Path db = dir.resolve("geo.mmdb");
    sampleDatabase().write(db);

    try (MaxMindGeoLocator geo = new MaxMindGeoLocator(db, Duration.ofHours(1))) {
      assertThat(geo.loaded()).isTrue();
      assertThat(geo.locate(ip("203.0.113.77"), "datacenter"))
          .contains(new GeoLocator.GeoMatch("eu", 24));
      assertThat(geo.locate(ip("203.0.113.77"), "country.iso_code"))
          .map(GeoLocator.GeoMatch::value)
          .contains("DE");
      assertThat(geo.locate(ip("198.51.100.5"), "continent.code"))
          .contains(new GeoLocator.GeoMatch("NA", 25));
      assertThat(geo.locate(ip("198.51.100.200"), "datacenter")).isEmpty();
      assertThat(geo.locate(ip("198.51.100.5"), "country.iso_code")).isEmpty();
      assertThat(geo.locate(ip("192.0.2.20"), "datacenter"))
          .map(GeoLocator.GeoMatch::value)
          .contains("us");
      assertThat(geo.locate(ip("2001:db8:e0::1"), "datacenter"))
          .contains(new GeoLocator.GeoMatch("eu", 48));
      assertThat(geo.locate(ip("203.0.113.77"), "country")).isEmpty(); // a map is not a value
    }
  }

  @Test
  void reloadsWhenTheFileChangesAndSurvivesAMissingFile() throws Exception {
    Path db = dir.resolve("geo.mmdb");
    try (MaxMindGeoLocator geo = new MaxMindGeoLocator(db, Duration.ofMillis(50))) {
      assertThat(geo.loaded()).isFalse();
      assertThat(geo.locate(ip("203.0.113.1"), "datacenter")).isEmpty();

      new MmdbWriter().add("203.0.113.0/24", Map.of("datacenter", "eu")).write(db);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> geo.locate(ip("203.0.113.1"), "datacenter").map(GeoLocator.GeoMatch::value),
              Optional.of("eu")::equals);

      new MmdbWriter().add("203.0.113.0/24", Map.of("datacenter", "ap")).write(db);
      Files.setLastModifiedTime(db, FileTime.from(Instant.now().plusSeconds(5)));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () -> geo.locate(ip("203.0.113.1"), "datacenter").map(GeoLocator.GeoMatch::value),
              Optional.of("ap")::equals);

      Files.writeString(db, "not a database");
      Files.setLastModifiedTime(db, FileTime.from(Instant.now().plusSeconds(10)));
      geo.reload();
      assertThat(geo.locate(ip("203.0.113.1"), "datacenter"))
          .map(GeoLocator.GeoMatch::value)
          .contains("ap");
    }
  }
}
