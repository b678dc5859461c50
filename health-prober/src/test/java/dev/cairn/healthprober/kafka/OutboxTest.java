package dev.cairn.healthprober.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OutboxTest {

  static List<Outbox.Entry> take(Outbox o) throws InterruptedException {
    List<Outbox.Entry> out = new ArrayList<>();
    o.take(0, TimeUnit.MILLISECONDS).forEach(out::add);
    return out;
  }

  @Test
  void keepsOnlyTheNewestValuePerKey() throws Exception {
    Outbox o = new Outbox();
    o.put("t", "k", "v1");
    o.put("t", "k", "v2");
    o.put("t", "other", null);
    o.put("u", "k", "x");

    List<Outbox.Entry> taken = take(o);

    assertThat(taken).extracting(Outbox.Entry::value).containsExactlyInAnyOrder("v2", null, "x");
    assertThat(o.size()).isZero();
  }

  @Test
  void aFailedSendComesBackUnlessANewerValueArrived() throws Exception {
    Outbox o = new Outbox();
    o.put("t", "k", "v1");
    Outbox.Entry first = take(o).get(0);

    o.retry(first);
    assertThat(take(o)).extracting(Outbox.Entry::value).containsExactly("v1");

    o.put("t", "k", "v2");
    Outbox.Entry second = take(o).get(0);
    o.retry(first);
    assertThat(take(o)).isEmpty();
    o.retry(second);
    assertThat(take(o)).extracting(Outbox.Entry::value).containsExactly("v2");
  }
}
