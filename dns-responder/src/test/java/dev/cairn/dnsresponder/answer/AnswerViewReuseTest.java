package dev.cairn.dnsresponder.answer;

import static dev.cairn.dnsresponder.zone.ZoneFixtures.endpoint;
import static dev.cairn.dnsresponder.zone.ZoneFixtures.labelled;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.dnsresponder.zone.BuildResult;
import dev.cairn.dnsresponder.zone.EndpointInput;
import dev.cairn.dnsresponder.zone.RecordKind;
import dev.cairn.dnsresponder.zone.SnapshotBuilder;
import dev.cairn.dnsresponder.zone.ZoneFixtures;
import dev.cairn.dnsresponder.zone.ZoneSnapshot;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.Type;

/**
 * A view compiled with the previous view's records ({@link AnswerView#serving(ZoneSnapshot,
 * ServingState, AnswerView)}) answers as one compiled from nothing, and keeps the compiled records
 * of the sets that did not change.
 */
class AnswerViewReuseTest {

  private static final InetAddress CLIENT = QueryAnswererTest.address("198.51.100.7");
  private static final GeoLocator GEO = (address, field) -> Optional.empty();

  private static final List<String> NAMES =
      List.of(
          "app.cloud.example.com",
          "api.cloud.example.com",
          "v6.cloud.example.com",
          "alias.cloud.example.com",
          "txt.cloud.example.com",
          "weighted.cloud.example.com",
          "gone.cloud.example.com",
          "new.cloud.example.com",
          "missing.cloud.example.com",
          "cloud.example.com");
  private static final int[] TYPES = {Type.A, Type.AAAA, Type.CNAME, Type.TXT, Type.SOA, Type.NS};

  private static List<EndpointInput> before() {
    return List.of(
        endpoint("app", 0, "app.cloud.example.com", "A", 30, "192.0.2.1", "192.0.2.2"),
        endpoint("api", 0, "api.cloud.example.com", "A", 30, "192.0.2.3"),
        endpoint("v6", 0, "v6.cloud.example.com", "AAAA", 30, "2001:db8::1"),
        endpoint("alias", 0, "alias.cloud.example.com", "CNAME", 30, "app.cloud.example.com"),
        endpoint("txt", 0, "txt.cloud.example.com", "TXT", 30, "hello"),
        labelled(
            "w",
            "weighted.cloud.example.com",
            "A",
            Map.of("weight-eu-0-80", "192.0.2.7", "weight-us-0-20", "192.0.2.8"),
            "192.0.2.7",
            "192.0.2.8"),
        endpoint("gone", 0, "gone.cloud.example.com", "A", 30, "192.0.2.9"));
  }

  /** One endpoint changed (api), one gone, one new; the rest as before. */
  private static List<EndpointInput> after() {
    List<EndpointInput> inputs = new ArrayList<>(before());
    inputs.removeIf(e -> e.source().equals("ns/api") || e.source().equals("ns/gone"));
    inputs.add(endpoint("api", 0, "api.cloud.example.com", "A", 30, "192.0.2.4"));
    inputs.add(endpoint("new", 0, "new.cloud.example.com", "A", 30, "192.0.2.10"));
    return inputs;
  }

  private static ZoneSnapshot build(List<EndpointInput> inputs, ZoneSnapshot previous) {
    BuildResult result =
        SnapshotBuilder.build(
            ZoneFixtures.zones(), inputs, ZoneFixtures.limits(), ZoneFixtures.NOW, previous);
    return ((BuildResult.Built) result).snapshot();
  }

  private static QueryAnswerer answerer() {
    return new QueryAnswerer(
        new TargetSelector(new SplittableRandom(7), GEO, List.of(), WeightedAnswer.ONE, 32),
        1232,
        32);
  }

  /** The fast path's response, or the full path's where the fast path declines. */
  private static byte[] answer(QueryAnswerer answerer, AnswerView view, byte[] query) {
    WireQuery wire = new WireQuery();
    ByteBuffer out = ByteBuffer.allocate(65535);
    if (wire.read(query, 0, query.length)) {
      int rcode = answerer.answer(view, wire, CLIENT, true, out);
      if (rcode != QueryAnswerer.NOT_HANDLED) {
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
      }
    }
    try {
      return answerer.answer(view, new org.xbill.DNS.Message(query), CLIENT).wire(true);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static WireIndex.Entry entry(AnswerView view, String name) {
    WireQuery wire = new WireQuery();
    byte[] query = WireAnswererTest.query(name + ".", Type.A, false, 1232, 0);
    assertThat(wire.read(query, 0, query.length)).isTrue();
    return view.wire().find(wire);
  }

  @Test
  void aViewThatReusesThePreviousOneAnswersAsAViewCompiledFromNothing() {
    ZoneSnapshot first = build(before(), null);
    AnswerView previous = AnswerView.serving(first, ServingState.SYNCED);
    ZoneSnapshot second = build(after(), first);

    AnswerView reused = AnswerView.serving(second, ServingState.SYNCED, previous);
    AnswerView fresh = AnswerView.serving(second, ServingState.SYNCED);

    QueryAnswerer viaReused = answerer();
    QueryAnswerer viaFresh = answerer();
    for (String name : NAMES) {
      for (int type : TYPES) {
        for (int round = 0; round < 3; round++) { // weighted answers draw; both draw alike
          byte[] query = WireAnswererTest.query(name + ".", type, false, 1232, 0);
          String what = name + " " + Type.string(type) + " #" + round;
          WireAnswererTest.assertSameResponse(
              answer(viaReused, reused, query), answer(viaFresh, fresh, query), what);
        }
      }
    }
  }

  @Test
  void keepsTheCompiledRecordsOfTheSetsThatDidNotChange() {
    ZoneSnapshot first = build(before(), null);
    AnswerView previous = AnswerView.serving(first, ServingState.SYNCED);
    AnswerView reused = AnswerView.serving(build(after(), first), ServingState.SYNCED, previous);

    assertThat(entry(reused, "app.cloud.example.com").get(RecordKind.A))
        .isSameAs(entry(previous, "app.cloud.example.com").get(RecordKind.A));
    assertThat(entry(reused, "api.cloud.example.com").get(RecordKind.A))
        .isNotSameAs(entry(previous, "api.cloud.example.com").get(RecordKind.A));
    assertThat(entry(reused, "api.cloud.example.com").get(RecordKind.A).set().targets())
        .extracting(t -> t.value())
        .containsExactly("192.0.2.4");
    assertThat(entry(reused, "gone.cloud.example.com")).isNull();
  }

  /** A random valid endpoint of object {@code o<object>}: names collide, some come and go. */
  private static EndpointInput randomEndpoint(Random random, int object) {
    String name =
        switch (random.nextInt(4)) {
          case 0 -> "h" + random.nextInt(60) + ".cloud.example.com";
          case 1 -> "h" + random.nextInt(20) + ".sub.cloud.example.com";
          case 2 -> "localtargets-h" + random.nextInt(60) + ".cloud.example.com";
          default -> "app.cloud.example.com";
        };
    return switch (random.nextInt(5)) {
      case 0 -> endpoint("o" + object, 0, name, "AAAA", 30, "2001:db8::" + (1 + random.nextInt(9)));
      case 1 -> endpoint("o" + object, 0, name, "CNAME", 30, "app.cloud.example.com");
      case 2 -> endpoint("o" + object, 0, name, "TXT", 30, "v" + random.nextInt(9));
      default ->
          endpoint(
              "o" + object,
              0,
              name,
              "A",
              30,
              "192.0.2." + (1 + random.nextInt(9)),
              "198.51.100." + (1 + random.nextInt(9)));
    };
  }

  @Test
  void viewsCompiledFromTheChangesAnswerAsViewsCompiledFromNothing() {
    Random random = new Random(17);
    List<EndpointInput> inputs = new ArrayList<>();
    for (int o = 0; o < 80; o++) {
      inputs.add(randomEndpoint(random, o));
    }
    Set<String> names = new TreeSet<>(NAMES);
    ZoneSnapshot snapshot = build(inputs, null);
    AnswerView view = AnswerView.serving(snapshot, ServingState.SYNCED);
    int patchedNames = 0;
    for (int round = 0; round < 60; round++) {
      for (int c = 1 + random.nextInt(6); c > 0; c--) {
        int i = random.nextInt(inputs.size());
        inputs.set(
            i, randomEndpoint(random, Integer.parseInt(inputs.get(i).source().substring(4))));
      }
      if (random.nextBoolean()) {
        inputs.remove(random.nextInt(inputs.size()));
      }
      if (random.nextBoolean()) {
        inputs.add(randomEndpoint(random, 100 + round));
      }
      Collections.shuffle(inputs, random);
      ZoneSnapshot next = build(inputs, snapshot);
      AnswerView patched = AnswerView.serving(next, ServingState.SYNCED, view);
      AnswerView fresh = AnswerView.serving(next, ServingState.SYNCED);
      names.addAll(snapshot.nodes().keySet());
      names.addAll(next.nodes().keySet());

      Set<String> changed = next.changedSince(snapshot);
      assertThat(changed).isNotNull();
      for (String name : snapshot.nodes().keySet()) {
        if (!changed.contains(name) && next.node(name) != null) {
          WireIndex.Entry before = entry(view, name);
          WireIndex.Entry after = entry(patched, name);
          for (RecordKind kind : next.node(name).sets().keySet()) {
            assertThat(after.get(kind)).as("%s %s", name, kind).isSameAs(before.get(kind));
          }
          if (after == before) {
            patchedNames++; // only a view patched from the previous one keeps the entry itself
          }
        }
      }
      QueryAnswerer viaPatched = answerer();
      QueryAnswerer viaFresh = answerer();
      for (String name : names) {
        for (int type : TYPES) {
          byte[] query = WireAnswererTest.query(name + ".", type, false, 1232, 0);
          WireAnswererTest.assertSameResponse(
              answer(viaPatched, patched, query),
              answer(viaFresh, fresh, query),
              "round " + round + " " + name + " " + Type.string(type));
        }
      }
      snapshot = next;
      view = patched;
    }
    assertThat(patchedNames).as("entries kept by patching").isGreaterThan(1000);
  }
}
