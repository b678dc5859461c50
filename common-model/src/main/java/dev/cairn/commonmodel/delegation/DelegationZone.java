package dev.cairn.commonmodel.delegation;

import dev.cairn.commonmodel.validation.GeoTags;
import dev.cairn.commonmodel.validation.Hostnames;
import java.util.Optional;

/**
 * A zone delegated from an edge (parent) zone to every cluster's DNS, as k8gb's ZoneDelegation:
 * {@code loadBalancedZone} must lie below {@code parentZone}. Both are normalised (lower case, no
 * trailing dot).
 *
 * @param parentZone the parent zone served by the edge DNS, e.g. {@code example.com}
 * @param loadBalancedZone the zone delegated to the clusters, e.g. {@code cloud.example.com}
 */
public record DelegationZone(String parentZone, String loadBalancedZone) {

  public DelegationZone {
    parentZone = Hostnames.require("parent-zone", parentZone);
    loadBalancedZone = Hostnames.require("load-balanced-zone", loadBalancedZone);
    if (!loadBalancedZone.endsWith("." + parentZone)) {
      throw new IllegalArgumentException(
          "load-balanced-zone '"
              + loadBalancedZone
              + "' must lie below parent-zone '"
              + parentZone
              + "'");
    }
  }

  /**
   * The name server name of a cluster, as k8gb names it ({@code controllers/resolver/ns_names.go}):
   * {@code <prefix><geoTag>-<lb zone without the parent, dots as dashes>.<parent>}, e.g. {@code
   * gslb-ns-eu-cloud.example.com}.
   */
  public String nsName(String gluePrefix, String geoTag) {
    return gluePrefix + geoTag + "-" + dashedLabel() + "." + parentZone;
  }

  /**
   * The geo tag encoded in a name server name, the inverse of {@link #nsName} (k8gb's {@code
   * ExtractGeoTagFromGlueA}); empty when the name does not follow the convention.
   */
  public Optional<String> geoTagOf(String gluePrefix, String nsName) {
    String name = Hostnames.normalise(nsName);
    String suffix = "-" + dashedLabel() + "." + parentZone;
    if (name == null || !name.endsWith(suffix)) {
      return Optional.empty();
    }
    String head = name.substring(0, name.length() - suffix.length());
    String prefix = gluePrefix == null ? "" : gluePrefix.toLowerCase(java.util.Locale.ROOT);
    if (!head.startsWith(prefix)) {
      return Optional.empty();
    }
    String tag = head.substring(prefix.length());
    return GeoTags.isValid(tag) ? Optional.of(tag) : Optional.empty();
  }

  private String dashedLabel() {
    String relative =
        loadBalancedZone.substring(0, loadBalancedZone.length() - parentZone.length() - 1);
    return relative.replace('.', '-');
  }
}
