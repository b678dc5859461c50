package dev.cairn.healthprober.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PeerTest {

  @Test
  void mergesServersOfTheSameGeoTagAndNeverListsItself() {
    ServerAddress a = ServerAddress.require("t", "192.0.2.1", 53);
    ServerAddress b = ServerAddress.require("t", "192.0.2.2", 53);
    PeerSet set =
        PeerSet.of(
            List.of(
                new Peer("eu", List.of(b)),
                new Peer("eu", List.of(a, b)),
                new Peer("us", List.of(a)),
                new Peer("ap", List.of(a))),
            "ap");

    assertThat(set.geoTags()).containsExactly("eu", "us");
    assertThat(set.peers().get("eu").servers()).containsExactly(a, b);
  }

  @Test
  void rejectsBadGeoTagsAndEmptyServers() {
    assertThatThrownBy(() -> new Peer("e u", List.of(ServerAddress.require("t", "192.0.2.1", 53))))
        .hasMessageContaining("geo tag");
    assertThatThrownBy(() -> new Peer("eu", List.of())).hasMessageContaining("no servers");
  }
}
