package dev.cairn.dnsresponder;

import dev.cairn.dnsresponder.server.DnsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;

/** Queries a running responder application over DNS and HTTP, the way its users do. */
final class ResponderProbe {

  private final ConfigurableApplicationContext context;
  private final SimpleResolver resolver;
  private final HttpClient http = HttpClient.newHttpClient();

  ResponderProbe(ConfigurableApplicationContext context) {
    this.context = context;
    resolver = new SimpleResolver(InetAddress.getLoopbackAddress());
    resolver.setPort(context.getBean(DnsServer.class).udpPort());
    resolver.setTimeout(Duration.ofSeconds(3));
  }

  /** The response to one question. */
  Message query(String name, int type) {
    try {
      return resolver.send(
          Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN)));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The rdata of the answer section, sorted. */
  List<String> answers(String name, int type) {
    return query(name, type).getSection(Section.ANSWER).stream()
        .map(Record::rdataToString)
        .sorted()
        .toList();
  }

  int rcode(String name, int type) {
    return query(name, type).getRcode();
  }

  /** GET on the actuator: status code and body. */
  HttpResponse<String> actuator(String path) {
    String port = context.getEnvironment().getProperty("local.server.port");
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/" + path))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
