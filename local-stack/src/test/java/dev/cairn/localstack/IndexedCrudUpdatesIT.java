package dev.cairn.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The mock API's cheaper update path (body parsed once, change checks by tree equality, stored
 * attributes from the updated tree) answers every request exactly as fabric8's own update path
 * does: two servers, one with each, get the same 1,500 seeded random requests over HTTP (creates,
 * PUTs current, stale, without a resourceVersion, renamed, malformed, with new labels, with a
 * deletion timestamp, status PUTs, merge patches, deletes, gets and label-selected lists of
 * DNSEndpoints and Gslbs) and every answer is compared: status code and body, with the fields that
 * differ between any two servers (uid, creationTimestamp, deletionTimestamp) masked.
 */
class IndexedCrudUpdatesIT {

  private static final String NS = "apps";
  private static final String[] NAMES = {"a", "b", "c", "d"};
  private static final String[] LABELS = {"blue", "green"};

  private MockKubernetesApi cheap;
  private MockKubernetesApi fabric8;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    cheap = MockKubernetesApi.start(0, new IndexedCrudDispatcher(64, Duration.ZERO, true));
    fabric8 = MockKubernetesApi.start(0, new IndexedCrudDispatcher(64, Duration.ZERO, false));
  }

  @AfterEach
  void stop() {
    cheap.close();
    fabric8.close();
  }

  @Test
  void answersEveryRequestAsFabric8sUpdatePathDoes() throws Exception {
    Random random = new Random(20261130);
    List<String> kinds = new ArrayList<>();
    int conflicts = 0;
    int generationBumps = 0;
    for (int step = 0; step < 1500; step++) {
      boolean gslb = random.nextBoolean();
      String name = NAMES[random.nextInt(NAMES.length)];
      String collection =
          gslb
              ? "/apis/k8gb.io/v1beta1/namespaces/" + NS + "/gslbs"
              : "/apis/externaldns.k8s.io/v1alpha1/namespaces/" + NS + "/dnsendpoints";
      String path = collection + "/" + name;
      // The current object as the fabric8-path server has it (both must agree, checked below).
      Answer current = send(fabric8, "GET", path, null, null);
      String version =
          current.code == 200
              ? current.json.path("metadata").path("resourceVersion").asString()
              : "1";
      int kind = random.nextInt(14);
      kinds.add(String.valueOf(kind));
      String contentType = "application/json";
      String method;
      String target = path;
      String body;
      switch (kind) {
        case 0, 1 -> {
          method = "POST";
          target = collection;
          body = object(gslb, name, random, null).toString();
        }
        case 2, 3, 4 -> {
          method = "PUT";
          body = object(gslb, name, random, version).toString();
        }
        case 5 -> {
          // The same object again: no new resourceVersion, no generation.
          method = "PUT";
          body = current.code == 200 ? current.raw : object(gslb, name, random, version).toString();
        }
        case 6 -> {
          method = "PUT";
          body =
              object(gslb, name, random, String.valueOf(Long.parseLong(version) + 1000)).toString();
        }
        case 7 -> {
          method = "PUT";
          body = object(gslb, name, random, null).toString();
        }
        case 8 -> {
          method = "PUT";
          ObjectNode renamed = object(gslb, name + "x", random, version);
          body = random.nextBoolean() ? renamed.toString() : malformed(random, renamed);
        }
        case 9 -> {
          method = "PUT";
          target = path + "/status";
          ObjectNode withStatus = object(gslb, name, random, version);
          withStatus.putObject("status").put("geoTag", LABELS[random.nextInt(2)]);
          body = withStatus.toString();
        }
        case 10 -> {
          method = "PUT";
          ObjectNode deleting = object(gslb, name, random, version);
          ((ObjectNode) deleting.get("metadata")).put("deletionTimestamp", "2026-11-30T00:00:00Z");
          body = deleting.toString();
        }
        case 11 -> {
          method = "PATCH";
          contentType = "application/merge-patch+json";
          body =
              random.nextBoolean()
                  ? "{\"metadata\":{\"labels\":{\"colour\":\"" + LABELS[random.nextInt(2)] + "\"}}}"
                  : "{\"spec\":{\"ttl\":" + random.nextInt(3) + "}}";
        }
        case 12 -> {
          method = "DELETE";
          body = null;
        }
        default -> {
          method = "GET";
          target = collection + "?labelSelector=colour%3D" + LABELS[random.nextInt(2)];
          body = null;
        }
      }
      Answer fromCheap = send(cheap, method, target, body, contentType);
      Answer fromFabric8 = send(fabric8, method, target, body, contentType);
      String what = "step " + step + ": " + method + " " + target + " " + body;
      assertThat(fromCheap.code).as(what).isEqualTo(fromFabric8.code);
      assertThat(masked(fromCheap)).as(what).isEqualTo(masked(fromFabric8));
      if (fromFabric8.code == 409) {
        conflicts++;
      }
      if ("PUT".equals(method)
          && fromFabric8.code == 200
          && current.code == 200
          && fromFabric8.json.path("metadata").path("generation").asLong()
              > current.json.path("metadata").path("generation").asLong()) {
        generationBumps++;
      }
      // And the stored state behind it, by name and by label.
      for (String read : List.of(path, collection + "?labelSelector=colour%3Dblue")) {
        assertThat(masked(send(cheap, "GET", read, null, null)))
            .as(what + ", then GET " + read)
            .isEqualTo(masked(send(fabric8, "GET", read, null, null)));
      }
    }
    // The sequence reached the cases it is about.
    assertThat(conflicts).isGreaterThan(20);
    assertThat(generationBumps).isGreaterThan(20);
    assertThat(kinds).contains("5", "8", "9", "10", "11");
  }

  private static ObjectNode object(boolean gslb, String name, Random random, String version) {
    ObjectNode o = Serialization.jsonMapper().createObjectNode();
    o.put("apiVersion", gslb ? "k8gb.io/v1beta1" : "externaldns.k8s.io/v1alpha1");
    o.put("kind", gslb ? "Gslb" : "DNSEndpoint");
    ObjectNode metadata = o.putObject("metadata");
    metadata.put("name", name);
    metadata.put("namespace", NS);
    if (version != null) {
      metadata.put("resourceVersion", version);
    }
    if (random.nextBoolean()) {
      metadata.putObject("labels").put("colour", LABELS[random.nextInt(2)]);
    }
    ObjectNode spec = o.putObject("spec");
    if (gslb) {
      spec.putObject("strategy").put("type", "roundRobin").put("dnsTtlSeconds", random.nextInt(2));
    } else {
      spec.putArray("endpoints")
          .addObject()
          .put("dnsName", name + ".example.com")
          .put("recordType", "A")
          .putArray("targets")
          .add("192.0.2." + random.nextInt(3));
    }
    if (random.nextInt(4) == 0) {
      o.putObject("status").put("geoTag", "from-a-spec-write");
    }
    return o;
  }

  private static String malformed(Random random, ObjectNode valid) {
    return switch (random.nextInt(4)) {
      case 0 -> "{\"metadata\":";
      case 1 -> {
        valid.remove("kind");
        yield valid.toString();
      }
      case 2 -> {
        valid.remove("metadata");
        yield valid.toString();
      }
      default -> "[1, 2]";
    };
  }

  private record Answer(int code, String raw, JsonNode json) {}

  private Answer send(MockKubernetesApi api, String method, String path, String body, String type)
      throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.url() + path));
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", type)
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode json;
    try {
      json = Serialization.jsonMapper().readTree(response.body());
    } catch (RuntimeException e) {
      json = null;
    }
    return new Answer(response.statusCode(), response.body(), json);
  }

  /** The answer with what always differs between two servers masked: uid and timestamps. */
  private static String masked(Answer answer) {
    if (answer.json == null) {
      return answer.code + " " + answer.raw;
    }
    JsonNode copy = answer.json.deepCopy();
    mask(copy);
    JsonNode items = copy.path("items");
    for (JsonNode item : items) {
      mask(item);
    }
    return answer.code + " " + copy;
  }

  private static void mask(JsonNode node) {
    if (node.path("metadata") instanceof ObjectNode metadata) {
      for (String field : List.of("uid", "creationTimestamp", "deletionTimestamp")) {
        if (metadata.has(field)) {
          metadata.put(field, "masked");
        }
      }
    }
  }
}
