package dev.cairn.dnsresponder.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.server.ResponseRateLimiter.Decision;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseRateLimiterTest {

  private static final long SECOND = 1_000_000_000L;

  private static InetAddress ip(String text) throws Exception {
    return InetAddress.getByName(text);
  }

  @Test
  void allowsTheRateThenSlipsEveryNthAndDropsTheRest() throws Exception {
    ResponseRateLimiter limiter = new ResponseRateLimiter(5, 2, 100);
    List<Decision> decisions = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      decisions.add(limiter.check(ip("192.0.2.1"), 0));
    }

    assertThat(decisions)
        .containsExactly(
            Decision.SEND,
            Decision.SEND,
            Decision.SEND,
            Decision.SEND,
            Decision.SEND,
            Decision.DROP,
            Decision.SLIP,
            Decision.DROP,
            Decision.SLIP);
  }

  @Test
  void refillsOverTime() throws Exception {
    ResponseRateLimiter limiter = new ResponseRateLimiter(2, 0, 100);
    limiter.check(ip("192.0.2.1"), 0);
    limiter.check(ip("192.0.2.1"), 0);

    assertThat(limiter.check(ip("192.0.2.1"), 0)).isEqualTo(Decision.DROP);
    assertThat(limiter.check(ip("192.0.2.1"), SECOND / 2)).isEqualTo(Decision.SEND);
    assertThat(limiter.check(ip("192.0.2.1"), SECOND / 2)).isEqualTo(Decision.DROP);
  }

  @Test
  void sharesABucketPerSlash24AndSlash56() throws Exception {
    ResponseRateLimiter limiter = new ResponseRateLimiter(1, 0, 100);

    assertThat(limiter.check(ip("192.0.2.1"), 0)).isEqualTo(Decision.SEND);
    assertThat(limiter.check(ip("192.0.2.200"), 0)).isEqualTo(Decision.DROP);
    assertThat(limiter.check(ip("192.0.3.1"), 0)).isEqualTo(Decision.SEND);
    assertThat(limiter.check(ip("2001:db8:0:1::1"), 0)).isEqualTo(Decision.SEND);
    assertThat(limiter.check(ip("2001:db8:0:ff::2"), 0)).isEqualTo(Decision.DROP);
    assertThat(limiter.check(ip("2001:db8:0:100::1"), 0)).isEqualTo(Decision.SEND);
  }

  @Test
  void forgetsIdlePrefixesWhenTheTableIsFull() throws Exception {
    ResponseRateLimiter limiter = new ResponseRateLimiter(1, 0, 3);
    for (int i = 0; i < 3; i++) {
      limiter.check(ip("10.0." + i + ".1"), 0);
    }

    limiter.check(ip("10.0.9.1"), 2 * SECOND);

    assertThat(limiter.tracked()).isEqualTo(1);
  }
}
