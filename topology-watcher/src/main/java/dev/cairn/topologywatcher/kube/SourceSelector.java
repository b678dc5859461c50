package dev.cairn.topologywatcher.kube;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Optional;

/**
 * Picks the source a kind is read from: always the same one for built-in kinds, and for kinds
 * defined by a CRD the first candidate version the API server serves, found through API discovery
 * ({@code GET /apis/<group>/<version>}, allowed to every authenticated client, so it needs no RBAC
 * beyond list/watch on the kind itself).
 */
abstract class SourceSelector {

  /**
   * The source to read now; empty when the API server serves none of the candidates.
   *
   * @throws KubernetesClientException when discovery fails for another reason than "not found"
   */
  abstract Optional<KindSource<?>> select(KubernetesClient client);

  /** True when {@link #select} asks the API server (the kind may appear or change version). */
  abstract boolean discovers();

  /** What is looked for, for logs and health. */
  abstract String describe();

  static SourceSelector fixed(KindSource<?> source) {
    return new SourceSelector() {
      @Override
      Optional<KindSource<?>> select(KubernetesClient client) {
        return Optional.of(source);
      }

      @Override
      boolean discovers() {
        return false;
      }

      @Override
      String describe() {
        return source.apiVersion() + " " + source.entity().label();
      }
    };
  }

  /**
   * The first of {@code candidates} (in preference order) whose API version serves {@code plural}.
   */
  static SourceSelector discovered(String plural, List<KindSource<?>> candidates) {
    return new SourceSelector() {
      @Override
      Optional<KindSource<?>> select(KubernetesClient client) {
        for (KindSource<?> candidate : candidates) {
          if (serves(client, candidate.apiVersion(), plural)) {
            return Optional.of(candidate);
          }
        }
        return Optional.empty();
      }

      @Override
      boolean discovers() {
        return true;
      }

      @Override
      String describe() {
        StringBuilder sb = new StringBuilder(plural).append(" in ");
        for (int i = 0; i < candidates.size(); i++) {
          sb.append(i == 0 ? "" : " or ").append(candidates.get(i).apiVersion());
        }
        return sb.toString();
      }
    };
  }

  /** True when discovery of {@code groupVersion} lists the resource {@code plural}. */
  static boolean serves(KubernetesClient client, String groupVersion, String plural) {
    APIResourceList resources;
    try {
      resources = client.getApiResources(groupVersion);
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return false;
      }
      throw e;
    }
    return resources != null
        && resources.getResources() != null
        && resources.getResources().stream().anyMatch(r -> plural.equals(r.getName()));
  }
}
