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

  static ResponseEntity<String> notFound(String message) {
    return JsonAnswer.of(HttpStatus.NOT_FOUND, new ApiError("not-found", message));
  }

  static ResponseEntity<String> badRequest(String message) {
    return JsonAnswer.of(HttpStatus.BAD_REQUEST, new ApiError("bad-request", message));
  }
}
