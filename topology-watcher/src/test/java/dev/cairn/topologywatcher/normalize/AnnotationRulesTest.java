package dev.cairn.topologywatcher.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.validation.Problem;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AnnotationRulesTest {

  private static boolean valid(AnnotationRules rules, String key, String value) {
    Problems problems = new Problems();
    Map<String, String> kept = rules.relevant(Map.of(key, value), problems);
    assertThat(kept).containsEntry(key, value);
    return problems.list().isEmpty();
  }

  @ParameterizedTest(name = "{0}={1} valid: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "directdns.meisterlala.dev/ttl|60|true",
        "directdns.meisterlala.dev/ttl|+60|true",
        "directdns.meisterlala.dev/ttl|' +60 '|true",
        "directdns.meisterlala.dev/ttl|++60|false",
        "directdns.meisterlala.dev/ttl|-60|false",
        "directdns.meisterlala.dev/ttl|0|false",
        "directdns.meisterlala.dev/ttl|60s|false",
        "directdns.meisterlala.dev/enabled|off|true",
        "directdns.meisterlala.dev/enabled|fAlse|true",
        "directdns.meisterlala.dev/enabled|nope|false",
        "directdns.meisterlala.dev/resolve-target-hostnames|yes|true",
        "directdns.meisterlala.dev/dns-server|10.0.0.53|true",
        "directdns.meisterlala.dev/dns-server|10.0.0.53:5353|true",
        "directdns.meisterlala.dev/dns-server|dns.example.com:53|true",
        "directdns.meisterlala.dev/dns-server|[2606:4700::1111]:53|true",
        "directdns.meisterlala.dev/dns-server|2606:4700::1111|true",
        "directdns.meisterlala.dev/dns-server|10.0.0.53:99999|false",
        "directdns.meisterlala.dev/dns-server|[10.0.0.53]:53|false",
        "directdns.meisterlala.dev/dns-server|dns server|false",
        "directdns.meisterlala.dev/target|203.0.113.7|true",
        "directdns.meisterlala.dev/target|edge.example.com|true",
        "directdns.meisterlala.dev/target|1.2.3.4:80|false",
        "directdns.meisterlala.dev/target-nodes|odin, baldr|true",
        "directdns.meisterlala.dev/target-nodes|odin, bal dr|false",
        "external-dns.alpha.kubernetes.io/hostname|a.example.com,*.b.example.com|true",
        "external-dns.alpha.kubernetes.io/hostname|a.example.com,b..example.com|false",
        "k8gb.io/dns-ttl-seconds|0|true",
        "k8gb.io/dns-ttl-seconds|-1|false",
        "k8gb.io/strategy|geoip|true",
        "k8gb.io/strategy|RoundRobin|false",
        "k8gb.io/primary-geotag|eu-west-1|true",
        "k8gb.io/primary-geotag|eu_west|false",
        "k8gb.io/exposed-ip-addresses|203.0.113.1,203.0.113.2|true",
        "k8gb.io/exposed-ip-addresses|203.0.113.1,localhost|false",
        "k8gb.io/hostname|app.example.com|true",
        "k8gb.io/some-future-annotation|anything at all|true"
      })
  void checksKnownRouteAnnotations(String key, String value, boolean valid) {
    assertThat(valid(AnnotationRules.ROUTE, key, value)).isEqualTo(valid);
  }

  @ParameterizedTest(name = "{0}={1} valid: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "k3s.io/external-ip|203.0.113.9|true",
        "k3s.io/external-ip|203.0.113.9,2001:db8::9|true",
        "k3s.io/external-ip|010.0.0.1|false",
        "k3s.io/external-dns|node-a.example.com|true",
        "k3s.io/external-dns|node_a.example.com|false"
      })
  void checksKnownNodeAnnotations(String key, String value, boolean valid) {
    assertThat(valid(AnnotationRules.NODE, key, value)).isEqualTo(valid);
  }

  @ParameterizedTest(name = "{0} relevant to a route: {1}, to a node: {2}, to a Gslb: {3}")
  @CsvSource({
    "directdns.meisterlala.dev/ttl, true, true, false",
    "k8gb.io/strategy, true, true, true",
    "external-dns.alpha.kubernetes.io/hostname, true, false, false",
    "external-dns.alpha.kubernetes.io/ttl, false, false, false",
    "k3s.io/external-ip, false, true, false",
    "kubectl.kubernetes.io/last-applied-configuration, false, false, false"
  })
  void keepsOnlyTheKeysCairnReads(String key, boolean route, boolean node, boolean gslb) {
    assertThat(AnnotationRules.ROUTE.isRelevant(key)).isEqualTo(route);
    assertThat(AnnotationRules.NODE.isRelevant(key)).isEqualTo(node);
    assertThat(AnnotationRules.GSLB.isRelevant(key)).isEqualTo(gslb);
  }

  /**
   * A Gslb's local-target annotations name the bad item by its index and as written, exactly as the
   * strategy-engine does (scenario invalid-exposed-ip-annotation), so the decision carries the
   * problem once.
   */
  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "k8gb.io/exposed-ip-addresses|'203.0.113.10, 203.0.113.300'|[1]|' 203.0.113.300'",
        "k8gb.io/exposed-ip-addresses|'192.0.2.1,,010.0.0.1'|[2]|010.0.0.1",
        "k8gb.io/exposed-ip-addresses|010.0.0.1|[0]|010.0.0.1",
        "k8gb.io/exposed-hostnames|'lb.example.com,bad_name!'|[1]|bad_name!"
      })
  void namesTheBadItemOfAGslbLocalTargetAnnotationByItsIndex(
      String key, String value, String index, String item) {
    Problems problems = new Problems();
    AnnotationRules.GSLB.relevant(Map.of(key, value), problems);

    assertThat(problems.list())
        .extracting(p -> p.field() + "=" + p.value())
        .containsExactly("metadata.annotations[" + key + "]" + index + "=" + item);
  }

  private static List<String> problemsOf(AnnotationRules rules, String key, String value) {
    Problems problems = new Problems();
    Map<String, String> kept = rules.relevant(Map.of(key, value), problems);
    assertThat(kept).containsEntry(key, value);
    return problems.list().stream().map(Problem::toString).toList();
  }

  /**
   * A list annotation reports every bad item, each as trimmed under the annotation's field (as the
   * strategy-engine names it, so that the two reports are one) and with its position in the list,
   * counted from 1 with empty items included; the value is kept as written.
   */
  @Test
  void reportsEveryBadItemOfAListAnnotationWithItsPosition() {
    String nodes = "metadata.annotations[directdns.meisterlala.dev/target-nodes]";
    assertThat(
            problemsOf(
                AnnotationRules.ROUTE, "directdns.meisterlala.dev/target-nodes", "!!!,,  ,$$$"))
        .containsExactly(
            nodes
                + "='!!!': item 1: label '!!!' has the character '!'; only letters, digits and"
                + " '-' are allowed",
            nodes
                + "='$$$': item 4: label '$$$' has the character '$'; only letters, digits and"
                + " '-' are allowed");
    assertThat(problemsOf(AnnotationRules.NODE, "k3s.io/external-ip", "1.2.3,::zz"))
        .containsExactly(
            "metadata.annotations[k3s.io/external-ip]='1.2.3': item 1: not a strict IPv4 or IPv6"
                + " address literal",
            "metadata.annotations[k3s.io/external-ip]='::zz': item 2: not a strict IPv4 or IPv6"
                + " address literal");
    assertThat(
            problemsOf(
                AnnotationRules.ROUTE,
                "external-dns.alpha.kubernetes.io/hostname",
                "a_b.example.com, ok.example.com , c..d"))
        .extracting(p -> p.substring(p.indexOf('=')))
        .containsExactly(
            "='a_b.example.com': item 1: label 'a_b' has the character '_'; only letters, digits"
                + " and '-' are allowed",
            "='c..d': item 3: host name has an empty label");
    assertThat(
            problemsOf(
                AnnotationRules.NODE, "k3s.io/external-dns", "ok.example.com,-a-.example.com"))
        .containsExactly(
            "metadata.annotations[k3s.io/external-dns]='-a-.example.com': item 2: label '-a-'"
                + " starts or ends with a hyphen");
  }

  @Test
  void aSingleValueHasNoPosition() {
    assertThat(problemsOf(AnnotationRules.NODE, "k3s.io/external-ip", " not-an-ip "))
        .containsExactly(
            "metadata.annotations[k3s.io/external-ip]='not-an-ip': not a strict IPv4 or IPv6"
                + " address literal");
  }

  @Test
  void aGslbLocalTargetAnnotationReportsEveryBadItemByItsIndex() {
    Problems problems = new Problems();
    AnnotationRules.GSLB.relevant(
        Map.of("k8gb.io/exposed-ip-addresses", "010.0.0.1, 203.0.113.1,,localhost"), problems);

    assertThat(problems.list())
        .extracting(p -> p.field() + "=" + p.value())
        .containsExactly(
            "metadata.annotations[k8gb.io/exposed-ip-addresses][0]=010.0.0.1",
            "metadata.annotations[k8gb.io/exposed-ip-addresses][3]=localhost");
  }
}
