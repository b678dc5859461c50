package dev.cairn.healthprober.dns;

import dev.cairn.healthprober.probe.DnsReply;
import dev.cairn.healthprober.probe.RecordType;
import dev.cairn.healthprober.probe.ReplyRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.Message;
import org.xbill.DNS.NSRecord;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;

/** Translates a dnsjava {@link Message} into the core's {@link DnsReply}. */
final class ReplyReader {

  private ReplyReader() {}

  /**
   * Translates a reply to a query.
   *
   * @param message the reply
   * @param query the query, whose name text is reused for records it owns (most of them)
   */
  static DnsReply read(Message message, EncodedQuery query) {
    List<ReplyRecord> answers = records(message.getSection(Section.ANSWER), query);
    List<Record> authoritySection = message.getSection(Section.AUTHORITY);
    List<ReplyRecord> authority = records(authoritySection, query);
    Long negativeTtl = null;
    for (Record r : authoritySection) {
      if (r instanceof SOARecord soa) {
        negativeTtl = Math.min(soa.getTTL(), soa.getMinimum());
        break;
      }
    }
    return new DnsReply(message.getRcode(), answers, authority, negativeTtl);
  }

  private static List<ReplyRecord> records(List<Record> section, EncodedQuery query) {
    List<ReplyRecord> out = new ArrayList<>(section.size());
    for (Record r : section) {
      String data = "";
      if (r instanceof ARecord a) {
        data = a.getAddress().getHostAddress();
      } else if (r instanceof AAAARecord aaaa) {
        data = aaaa.getAddress().getHostAddress();
      } else if (r instanceof CNAMERecord cname) {
        data = name(cname.getTarget());
      } else if (r instanceof NSRecord ns) {
        data = name(ns.getTarget());
      }
      String owner = r.getName().equals(query.name()) ? query.qname() : name(r.getName());
      out.add(new ReplyRecord(owner, RecordType.of(r.getType()), r.getTTL(), data));
    }
    return out;
  }

  private static String name(org.xbill.DNS.Name n) {
    return n.toString(true).toLowerCase(Locale.ROOT);
  }
}
