package dev.cairn.strategyengine.api;

import dev.cairn.commonmodel.codec.CairnJson;
import dev.cairn.commonmodel.decision.TargetDecision;
import dev.cairn.commonmodel.validation.Hostnames;
import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * The explain API: the engine's current decision, with its explanation, as JSON in the same form as
 * on {@code cairn.decision.targets.v1}.
 *
 * <ul>
 *   <li>{@code GET /api/v1/decisions/{namespace}/{name}}: the decision of an HTTPRoute; with {@code
 *       ?kind=Gslb} the decision of a Gslb (its explanation tells the strategy branch per host and
 *       how each peer's answer counted; {@code /api/v1/gslbs/{namespace}/{name}} has the full
 *       report);
 *   <li>{@code GET /api/v1/decisions?hostname=app.example.com}: every decision publishing that name
 *       (a JSON array).
 * </ul>
 *
 * Unknown: 404; Kafka Streams not RUNNING: 503; errors are {@code {"error": ..., "message": ...}}.
 */
@RestController
@RequestMapping(path = "/api/v1/decisions", produces = MediaType.APPLICATION_JSON_VALUE)
class DecisionController {

  /** The source kinds the engine decides. */
  static final List<String> KINDS = List.of("HTTPRoute", "Gslb");

  private final DecisionQueries queries;
  private final JsonMapper json = CairnJson.newMapper();

  DecisionController(DecisionQueries queries) {
    this.queries = queries;
  }

  @GetMapping("/{namespace}/{name}")
  ResponseEntity<String> forSource(
      @PathVariable String namespace,
      @PathVariable String name,
      @RequestParam(defaultValue = "HTTPRoute") String kind) {
    if (!KINDS.contains(kind)) {
      return error(
          HttpStatus.BAD_REQUEST,
          "bad-request",
          "kind must be one of " + String.join(", ", KINDS) + ", got '" + kind + "'");
    }
    Optional<TargetDecision> decision = queries.forSource(kind, namespace, name);
    return decision
        .map(d -> ResponseEntity.ok(json.writeValueAsString(d)))
        .orElseGet(
            () ->
                error(
                    HttpStatus.NOT_FOUND,
                    "not-found",
                    "no decision for " + kind + " " + namespace + "/" + name));
  }

  @GetMapping(params = "hostname")
  ResponseEntity<String> forHostname(@RequestParam String hostname) {
    Optional<Problem> problem = Hostnames.checkPattern("hostname", hostname.strip());
    if (problem.isPresent()) {
      return error(HttpStatus.BAD_REQUEST, "bad-request", problem.get().toString());
    }
    String name = Hostnames.normalise(hostname.strip());
    List<TargetDecision> decisions = queries.forHostname(name);
    if (decisions.isEmpty()) {
      return error(HttpStatus.NOT_FOUND, "not-found", "no decision publishes " + name);
    }
    return ResponseEntity.ok(json.writeValueAsString(decisions));
  }

  @GetMapping
  ResponseEntity<String> withoutQuery() {
    return error(
        HttpStatus.BAD_REQUEST,
        "bad-request",
        "use /api/v1/decisions/{namespace}/{name}[?kind=Gslb] or /api/v1/decisions?hostname=<name>");
  }

  @ExceptionHandler(StreamsUnavailableException.class)
  ResponseEntity<String> unavailable(StreamsUnavailableException e) {
    return error(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", e.getMessage());
  }

  private ResponseEntity<String> error(HttpStatus status, String error, String message) {
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .body(json.writeValueAsString(new ApiError(error, message)));
  }

  /** The body of an error response. */
  record ApiError(String error, String message) {}
}
