package dev.cairn.recordwriter.web;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * The body of an error answer of the writer's explain API, as the strategy-engine's: {@code error}
 * ({@code not-found}, {@code bad-request}) and a {@code message} that names what was asked.
 *
 * @param error the kind of error
 * @param message what was not found or what is wrong with the request, in words
 */
public record ApiError(String error, String message) {

  static ResponseEntity<ApiError> notFound(String message) {
    return ResponseEntity.status(HttpStatus.NOT_FOUND).body(new ApiError("not-found", message));
  }

  static ResponseEntity<ApiError> badRequest(String message) {
    return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(new ApiError("bad-request", message));
  }
}
