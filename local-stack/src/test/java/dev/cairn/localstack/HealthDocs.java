package dev.cairn.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The health groups docs/operations.md documents ("Actuator endpoints" and "Health"): the
 * components of each service's readiness and liveness groups, and what a running service's {@code
 * /actuator/health/<group>} holds.
 */
final class HealthDocs {

  private static final Pattern READINESS_ROW =
      Pattern.compile("^\\| ([a-z-]+) \\| `([A-Za-z]+)`[^|]* \\|");
  private static final Pattern LIVENESS_ROW =
      Pattern.compile("^\\| `GET /actuator/health/liveness` \\| (.*) \\|$");
  private static final Pattern LIVENESS_ADDS =
      Pattern.compile("the ([a-z-]+)(?: adds)? `([A-Za-z]+)`");

  private HealthDocs() {}

  /** Each service's documented readiness components, {@code readinessState} included. */
  static Map<String, Set<String>> readiness() throws IOException {
    Map<String, Set<String>> groups = new TreeMap<>();
    boolean inHealth = false;
    for (String line : Files.readAllLines(MeterDocs.OPERATIONS)) {
      if (line.startsWith("#")) {
        inHealth = line.equals("### Health");
        continue;
      }
      Matcher row = READINESS_ROW.matcher(line);
      if (inHealth && row.find()) {
        groups
            .computeIfAbsent(row.group(1), s -> new TreeSet<>(Set.of("readinessState")))
            .add(row.group(2));
      }
    }
    return groups;
  }

  /**
   * Each service's documented liveness components, {@code livenessState} included: the row of
   * {@code /actuator/health/liveness} names what "the dns-responder adds".
   */
  static Map<String, Set<String>> liveness(Set<String> services) throws IOException {
    Map<String, Set<String>> groups = new TreeMap<>();
    services.forEach(s -> groups.put(s, new TreeSet<>(Set.of("livenessState"))));
    for (String line : Files.readAllLines(MeterDocs.OPERATIONS)) {
      Matcher row = LIVENESS_ROW.matcher(line);
      if (row.matches()) {
        Matcher adds = LIVENESS_ADDS.matcher(row.group(1));
        while (adds.find()) {
          groups.computeIfAbsent(adds.group(1), s -> new TreeSet<>()).add(adds.group(2));
        }
      }
    }
    return groups;
  }

  /** The component names of a running service's health group, as its actuator answers. */
  static Set<String> components(String port, String group)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/actuator/health/" + group))
                    .timeout(Duration.ofSeconds(5))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    JsonNode body = JsonMapper.builder().build().readTree(response.body());
    return new TreeSet<>(body.path("components").propertyNames());
  }
}
