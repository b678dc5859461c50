package dev.cairn.localstack;

import dev.cairn.commonmodel.validation.IpLiteral;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * Asks a cluster's dns-responder for a name over real DNS (dnsjava over UDP), as a client's
 * resolver would. The live view, the scenarios and the system tests all see Cairn through this.
 */
final class DnsLookup {

  private static final Duration TIMEOUT = Duration.ofMillis(800);

  private DnsLookup() {}

  /**
   * What a server answered for one name and type.
   *
   * @param rcode the response code ({@code NOERROR}, {@code NXDOMAIN}, ...), or {@code TIMEOUT} /
   *     {@code ERROR} when there was no usable response
   * @param addresses the A or AAAA addresses in the answer section, in answer order
   * @param authoritative whether the AA bit was set
   */
  record Answer(String rcode, List<String> addresses, boolean authoritative) {
    Answer {
      addresses = List.copyOf(addresses);
    }

    /** {@code NXDOMAIN}, {@code NODATA} (NOERROR without addresses) or the addresses. */
    String describe() {
      if (!rcode.equals("NOERROR")) {
        return rcode;
      }
      return addresses.isEmpty() ? "NODATA" : String.join(",", addresses);
    }
  }

  /** Queries {@code server} for the A ({@code ipv6 == false}) or AAAA records of {@code host}. */
  static Answer query(InetSocketAddress server, String host, boolean ipv6) {
    if (server == null) {
      return new Answer("DOWN", List.of(), false);
    }
    Name name;
    try {
      name = Name.fromString(host.endsWith(".") ? host : host + ".");
    } catch (TextParseException e) {
      throw new IllegalArgumentException("not a DNS name: " + host, e);
    }
    int type = ipv6 ? Type.AAAA : Type.A;
    try {
      SimpleResolver resolver = new SimpleResolver(server);
      resolver.setTimeout(TIMEOUT);
      Message query = Message.newQuery(Record.newRecord(name, type, DClass.IN));
      query.getHeader().unsetFlag(Flags.RD);
      Message response = resolver.send(query);
      List<String> addresses = new ArrayList<>();
      for (Record r : response.getSection(Section.ANSWER)) {
        if (r instanceof ARecord a) {
          addresses.add(a.getAddress().getHostAddress());
        } else if (r instanceof AAAARecord aaaa) {
          String text = aaaa.getAddress().getHostAddress();
          addresses.add(IpLiteral.parse(text).map(IpLiteral::text).orElse(text));
        }
      }
      return new Answer(
          Rcode.string(response.getRcode()), addresses, response.getHeader().getFlag(Flags.AA));
    } catch (java.net.SocketTimeoutException e) {
      return new Answer("TIMEOUT", List.of(), false);
    } catch (IOException e) {
      return new Answer("ERROR", List.of(), false);
    }
  }
}
