package dev.cairn.strategyengine.api;

import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.strategyengine.api.DecisionQueries.GslbSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Gslb explain API: {@code GET /api/v1/gslbs/{namespace}/{name}} returns what the engine holds
 * about a Gslb:
 *
 * <pre>
 * {
 *   "now": "...",                 // the time the ages below are relative to
 *   "decision": {...},            // the last TargetDecision emitted (null if none)
 *   "status": {...},              // the last GslbStatus emitted (null if none)
 *   "report": {                   // the last evaluation (GslbReport)
 *     "hosts": [{
 *       "host", "health", "services", "serving", "branch", "rule", "chosen", "finalTargets",
 *       "peers": [{"geoTag", "status", "targets", "lastSuccess", "observedAt", "verdict",
 *                  "counted", "trustedUntil", "reason",
 *                  "observedAgeSeconds", "lastSuccessAgeSeconds", "failingForSeconds"}]
 *     }], ...
 *   }
 * }
 * </pre>
 *
 * A field without a value is left out, as in the contract's JSON: {@code trustedUntil} but for an
 * unreachable peer whose last answer is still trusted, {@code lastSuccess} and its age before the
 * peer's first answer, {@code failingSince} and {@code failingForSeconds} but while it fails.
 * Unknown: 404; Kafka Streams not RUNNING: 503.
 */
@RestController
@RequestMapping(path = "/api/v1/gslbs", produces = MediaType.APPLICATION_JSON_VALUE)
class GslbController {

  private final DecisionQueries queries;
  private final Clock clock;
  private final JsonMapper json = CairnJson.newMapper();

  GslbController(DecisionQueries queries, Clock clock) {
    this.queries = queries;
    this.clock = clock;
  }

  @GetMapping("/{namespace}/{name}")
  ResponseEntity<String> forGslb(@PathVariable String namespace, @PathVariable String name) {
    Optional<GslbSnapshot> found = queries.forGslb(namespace, name);
    if (found.isEmpty()) {
      return ResponseEntity.status(HttpStatus.NOT_FOUND)
          .contentType(MediaType.APPLICATION_JSON)
          .body(
              json.writeValueAsString(
                  new DecisionController.ApiError(
                      "not-found", "the engine holds nothing for Gslb " + namespace + "/" + name)));
    }
    return ResponseEntity.ok(json.writeValueAsString(explain(found.get(), clock.instant())));
  }

  @ExceptionHandler(StreamsUnavailableException.class)
  ResponseEntity<String> unavailable(StreamsUnavailableException e) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .contentType(MediaType.APPLICATION_JSON)
        .body(
            json.writeValueAsString(
                new DecisionController.ApiError("unavailable", e.getMessage())));
  }

  /** The snapshot as JSON, each peer answer with its ages relative to {@code now}. */
  JsonNode explain(GslbSnapshot snapshot, Instant now) {
    ObjectNode body = json.createObjectNode();
    body.put("now", now.toString());
    body.set("decision", json.valueToTree(snapshot.decision()));
    body.set("status", json.valueToTree(snapshot.status()));
    JsonNode report = json.valueToTree(snapshot.report());
    if (report != null && report.get("hosts") != null) {
      for (JsonNode host : report.get("hosts")) {
        JsonNode peers = host.get("peers");
        if (peers == null) {
          continue;
        }
        for (JsonNode peer : peers) {
          ObjectNode answer = (ObjectNode) peer;
          putAge(answer, "observedAgeSeconds", peer.get("observedAt"), now);
          putAge(answer, "lastSuccessAgeSeconds", peer.get("lastSuccess"), now);
          putAge(answer, "failingForSeconds", peer.get("failingSince"), now);
        }
      }
    }
    body.set("report", report);
    return body;
  }

  private static void putAge(ObjectNode target, String field, JsonNode instant, Instant now) {
    if (instant == null || instant.isNull()) {
      return; // as the instant it is taken from: a field without a value is left out
    }
    target.put(field, Duration.between(Instant.parse(instant.asString()), now).toSeconds());
  }
}
