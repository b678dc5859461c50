package dev.cairn.dnsresponder.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.dnsresponder.zone.EndpointInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotFileTest {

  @TempDir Path dir;

  @Test
  void roundTripsEveryField() throws IOException {
    SnapshotFile file = new SnapshotFile(dir.resolve("s.json"));
    EndpointInput input =
        new EndpointInput(
            "ns/app",
            Instant.parse("2026-11-29T10:00:00Z"),
            2,
            "app.cloud.example.com",
            "A",
            30,
            List.of("192.0.2.1"),
            Map.of("strategy", "geoip", "weight-eu-0-10", "192.0.2.1"));
    SnapshotFile.Content content =
        new SnapshotFile.Content(1, "c1", Instant.parse("2026-11-29T12:00:00Z"), List.of(input));

    file.write(content);

    assertThat(file.read()).contains(content);
    assertThat(Files.readString(file.path())).doesNotContain("\"path\"");
  }

  @Test
  void isEmptyWithoutAFileAndRefusesOtherContent() throws IOException {
    SnapshotFile file = new SnapshotFile(dir.resolve("s.json"));
    assertThat(file.read()).isEmpty();

    Files.writeString(
        file.path(),
        "{\"formatVersion\":2,\"clusterId\":\"c\",\"writtenAt\":\"2026-01-01T00:00:00Z\"}");
    assertThatThrownBy(file::read)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("format version 2");

    Files.writeString(file.path(), "garbage");
    assertThatThrownBy(file::read).isInstanceOf(IOException.class);
  }
}
