package dev.cairn.recordwriter;

import static dev.cairn.recordwriter.MockKubernetes.DNS_ENDPOINT_WRITES;
import static dev.cairn.recordwriter.MockKubernetes.GSLB_STATUS_WRITES;
import static dev.cairn.recordwriter.TestDecisions.objectName;
import static dev.cairn.recordwriter.TestDecisions.publish;
import static dev.cairn.recordwriter.TestStatuses.healthy;
import static dev.cairn.recordwriter.TestStatuses.host;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.commonmodel.decision.GslbStatus;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.recordwriter.MockKubernetes.Write;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Concurrent writes ({@code writer.max-concurrent-writes}) against the fabric8 CRUD mock, which
 * holds every write's answer back for {@link #DELAY} so that writes sent together are in flight
 * together at the server: they overlap there, never more than the limit, never two to one object,
 * and reach the state one write at a time reaches; conflicts are read again and planned again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConcurrentWritesIT {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Duration DELAY = Duration.ofMillis(150);
  private static final int MAX_CONCURRENT = 4;

  private MockKubernetes api;
  private StateProducer<TargetDecision> decisions;
  private StateProducer<GslbStatus> statuses;
  private WriterRun writer;

  @BeforeAll
  void start() {
    api = new MockKubernetes(true);
    api.delayWrites(DELAY);
    decisions = StateProducer.decisions(EmbeddedBroker.bootstrapServers(), "cw.");
    statuses = StateProducer.gslbStatuses(EmbeddedBroker.bootstrapServers(), "cw.");
    writer =
        WriterRun.start(
            api,
            "cw.",
            "writer.max-concurrent-writes=" + MAX_CONCURRENT,
            "writer.rate-limit.writes-per-second=1000",
            "writer.rate-limit.burst=1000");
  }

  @AfterAll
  void stop() {
    if (writer != null) {
      writer.close();
    }
    decisions.close();
    statuses.close();
    api.close();
  }

  private static String ip(int i) {
    return "10.0." + (i / 250) + "." + (i % 250 + 1);
  }

  private void awaitState(String ns, Map<String, List<String>> expected) {
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              Map<String, List<String>> actual = new HashMap<>();
              for (String route : expected.keySet()) {
                GenericKubernetesResource r = api.get(ns, objectName(route));
                actual.put(route, r == null ? null : RecordWriterIT.targets(r));
              }
              assertThat(actual).isEqualTo(expected);
            });
    await().atMost(WAIT).until(writer::writesSettled);
  }

  /**
   * The most writes (of any kind the scheduler sends) the server handled within less than {@link
   * #DELAY} of each other. Each was in flight at the writer from before the server handled it until
   * its answer came, at least {@code DELAY} later; so writes handled that close together were in
   * flight together.
   */
  private long mostInFlightTogether(Predicate<Write> which) {
    List<Write> writes = api.everyWrite().stream().filter(which).toList();
    long most = 0;
    for (int i = 0; i < writes.size(); i++) {
      long from = writes.get(i).atNanos();
      long together =
          writes.subList(i, writes.size()).stream()
              .filter(w -> w.atNanos() - from < DELAY.toNanos())
              .count();
      most = Math.max(most, together);
    }
    return most;
  }

  private static boolean scheduled(Write w) {
    return w.resource().equals(DNS_ENDPOINT_WRITES) || w.resource().equals(GSLB_STATUS_WRITES);
  }

  @Test
  void writesSeveralAtOnceNeverMoreThanTheLimitAndReachesTheDecidedState() {
    String ns = "bulk";
    Map<String, List<String>> expected = new HashMap<>();
    for (int i = 0; i < 40; i++) {
      decisions.sendAsync(publish(ns, "r" + i, ip(i)));
      expected.put("r" + i, List.of(ip(i)));
    }
    decisions.flush();
    awaitState(ns, expected);

    for (int i = 0; i < 20; i++) {
      decisions.sendAsync(publish(ns, "r" + i, ip(i + 100), ip(i + 200)));
      expected.put("r" + i, List.of(ip(i + 100), ip(i + 200)));
    }
    for (int i = 30; i < 40; i++) {
      decisions.tombstone(TestDecisions.route(ns, "r" + i).key());
      expected.put("r" + i, null);
    }
    decisions.flush();
    awaitState(ns, expected);

    List<Write> writes = api.writesOf(DNS_ENDPOINT_WRITES, ns, null);
    assertThat(writes).allSatisfy(w -> assertThat(w.status()).isLessThan(300));
    Map<String, List<String>> methodsByName = new HashMap<>();
    writes.forEach(
        w -> methodsByName.computeIfAbsent(w.name(), n -> new ArrayList<>()).add(w.method()));
    for (int i = 0; i < 40; i++) {
      List<String> expectedMethods =
          i < 20 ? List.of("POST", "PUT") : i < 30 ? List.of("POST") : List.of("POST", "DELETE");
      assertThat(methodsByName.get(objectName("r" + i)))
          .as("writes to r%d, in order", i)
          .isEqualTo(expectedMethods);
    }
    assertThat(mostInFlightTogether(w -> scheduled(w) && w.namespace().equals(ns)))
        .as("writes overlap at the server, never more than writer.max-concurrent-writes")
        .isBetween(2L, (long) MAX_CONCURRENT);
  }

  @Test
  void writesStatusesAlongsideRecordsAndReplansAfterConflictsOnBoth() {
    String ns = "mixed";
    Map<String, String> uids = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      uids.put("g" + i, api.createGslb(ns, "g" + i).getMetadata().getUid());
      statuses.sendAsync(healthy(ns, "g" + i, uids.get("g" + i), ip(i)));
    }
    Map<String, List<String>> expected = new HashMap<>();
    for (int i = 0; i < 10; i++) {
      decisions.sendAsync(publish(ns, "r" + i, ip(i)));
      expected.put("r" + i, List.of(ip(i)));
    }
    statuses.flush();
    decisions.flush();
    awaitState(ns, expected);
    for (int i = 0; i < 10; i++) {
      awaitStatus(ns, "g" + i, ip(i));
    }

    api.beforeNextUpdate(
        ns,
        objectName("r3"),
        sent -> {
          Map<String, String> annotations = new HashMap<>(sent.getMetadata().getAnnotations());
          annotations.put("example.com/edited-meanwhile", "yes");
          sent.getMetadata().setAnnotations(annotations);
          sent.setAdditionalProperty(
              "spec",
              Map.of(
                  "endpoints",
                  List.of(
                      Map.of(
                          "dnsName",
                          TestDecisions.dnsName(ns, "r3"),
                          "recordType",
                          "A",
                          "targets",
                          List.of("203.0.113.9")))));
          return sent;
        });
    api.beforeNextStatusUpdate(
        ns,
        "g3",
        stored -> {
          stored.getMetadata().setLabels(Map.of("example.com/edited-meanwhile", "yes"));
          return stored;
        });
    for (int i = 0; i < 10; i++) {
      decisions.sendAsync(publish(ns, "r" + i, ip(i + 50)));
      expected.put("r" + i, List.of(ip(i + 50)));
      statuses.sendAsync(healthy(ns, "g" + i, uids.get("g" + i), ip(i + 50)));
    }
    decisions.flush();
    statuses.flush();
    awaitState(ns, expected);
    for (int i = 0; i < 10; i++) {
      awaitStatus(ns, "g" + i, ip(i + 50));
    }

    assertThat(api.get(ns, objectName("r3")).getMetadata().getAnnotations())
        .containsEntry("example.com/edited-meanwhile", "yes");
    assertThat(api.writesTo(ns, objectName("r3")).stream().filter(w -> w.method().equals("PUT")))
        .extracting(Write::status)
        .containsExactly(409, 200);
    assertThat(api.getGslb(ns, "g3").getMetadata().getLabels())
        .containsEntry("example.com/edited-meanwhile", "yes");
    assertThat(api.writesOf(GSLB_STATUS_WRITES, ns, "g3"))
        .extracting(Write::status)
        .containsExactly(200, 409, 200);
    for (int i = 0; i < 10; i++) {
      if (i != 3) {
        assertThat(api.writesOf(GSLB_STATUS_WRITES, ns, "g" + i))
            .extracting(Write::status)
            .containsExactly(200, 200);
      }
    }
    assertThat(mostInFlightTogether(w -> scheduled(w) && w.namespace().equals(ns)))
        .isBetween(2L, (long) MAX_CONCURRENT);
  }

  @SuppressWarnings("unchecked")
  private void awaitStatus(String ns, String name, String... targets) {
    await()
        .atMost(WAIT)
        .until(
            () -> api.getGslb(ns, name),
            r -> {
              Object status = r == null ? null : r.getAdditionalProperties().get("status");
              if (!(status instanceof Map<?, ?> m)
                  || !(m.get("healthyRecords") instanceof Map<?, ?> records)) {
                return false;
              }
              return List.of(targets).equals(((Map<String, Object>) records).get(host(name)));
            });
  }
}
