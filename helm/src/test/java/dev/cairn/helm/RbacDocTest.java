package dev.cairn.helm;

import static dev.cairn.helm.RenderedChart.RELEASE;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

/**
 * The RBAC the chart grants is the RBAC docs/operations.md documents, rule for rule: each service's
 * ClusterRole holds its cluster-wide rules and the leader-election Role its Lease rule.
 */
class RbacDocTest {

  private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");

  /** (apiGroup, resource, verb) triples of the rules in the docs' YAML block after **service**. */
  @SuppressWarnings("unchecked")
  private static Set<String> documented(String service, boolean lease) throws IOException {
    String doc = Files.readString(OPERATIONS);
    Matcher block =
        Pattern.compile(
                "\\*\\*" + Pattern.quote(service) + "\\*\\*.*?```yaml\\n(.*?)```", Pattern.DOTALL)
            .matcher(doc);
    assertThat(block.find()).as("docs/operations.md has an RBAC block for %s", service).isTrue();
    Set<String> triples = new TreeSet<>();
    for (Map<String, Object> rule : (List<Map<String, Object>>) new Yaml().load(block.group(1))) {
      List<String> groups = (List<String>) rule.get("apiGroups");
      if (groups.contains("coordination.k8s.io") == lease) {
        add(
            triples,
            groups,
            (List<String>) rule.get("resources"),
            (List<String>) rule.get("verbs"));
      }
    }
    return triples;
  }

  private static Set<String> granted(Collection<PolicyRule> rules) {
    Set<String> triples = new TreeSet<>();
    for (PolicyRule r : rules) {
      add(triples, r.getApiGroups(), r.getResources(), r.getVerbs());
    }
    return triples;
  }

  private static void add(
      Set<String> triples, List<String> groups, List<String> resources, List<String> verbs) {
    for (String g : groups) {
      for (String r : resources) {
        for (String v : verbs) {
          triples.add((g.isEmpty() ? "core" : g) + " " + r + " " + v);
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"topology-watcher", "record-writer", "dns-responder"})
  void theClusterRoleGrantsWhatTheDocsList(String service) throws IOException {
    RenderedChart chart = RenderedChart.render();

    Set<String> granted = granted(chart.get(ClusterRole.class, RELEASE + "-" + service).getRules());
    assertThat(granted).isNotEmpty().isEqualTo(documented(service, false));
  }

  @ParameterizedTest
  @ValueSource(strings = {"topology-watcher", "record-writer"})
  void theLeaseRoleGrantsWhatTheDocsList(String service) throws IOException {
    RenderedChart chart = RenderedChart.render();

    Set<String> granted =
        granted(chart.get(Role.class, RELEASE + "-" + service + "-leader-election").getRules());
    assertThat(granted).isNotEmpty().isEqualTo(documented(service, true));
  }
}
