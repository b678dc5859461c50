package dev.cairn.dnsresponder;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The dns-responder: an authoritative DNS server for the DNSEndpoints Cairn writes, replacing
 * k8gb's CoreDNS {@code k8s_crd} plugin. Composition root only; beans live in {@code config}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class DnsResponderApplication {

  /**
   * The application, reading {@code dns-responder.yaml} (never {@code application.yaml}, so that
   * every Cairn service can share one JVM).
   */
  public static SpringApplicationBuilder builder() {
    return new SpringApplicationBuilder(DnsResponderApplication.class)
        .properties("spring.config.name=dns-responder");
  }

  public static void main(String[] args) {
    builder().run(args);
  }
}
