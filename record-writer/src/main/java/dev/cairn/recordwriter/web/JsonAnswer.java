package dev.cairn.recordwriter.web;

import dev.cairn.commonmodel.codec.CairnJson;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

/**
 * An answer of the writer's explain API, encoded as the contract records are on the topics and as
 * the strategy-engine's API answers ({@link CairnJson}: null fields left out, instants and
 * durations as ISO-8601 text, map entries sorted).
 */
final class JsonAnswer {

  private static final JsonMapper JSON = CairnJson.newMapper();

  private JsonAnswer() {}

  /** 200 with the body as JSON. */
  static ResponseEntity<String> ok(Object body) {
    return of(HttpStatus.OK, body);
  }

  /** The status with the body as JSON. */
  static ResponseEntity<String> of(HttpStatus status, Object body) {
    return ResponseEntity.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .body(JSON.writeValueAsString(body));
  }
}
