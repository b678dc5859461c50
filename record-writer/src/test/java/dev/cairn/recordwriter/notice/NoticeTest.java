package dev.cairn.recordwriter.notice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.recordwriter.notice.Notice.Reason;
import dev.cairn.recordwriter.notice.Notice.Subject;
import dev.cairn.recordwriter.plan.ObjectNames;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NoticeTest {

  private static Subject route(String name, String uid) {
    return new Subject("gateway.networking.k8s.io/v1", "HTTPRoute", "shop", name, uid);
  }

  private static Notice conflict(Subject regarding, String note) {
    return new Notice(regarding, null, Reason.RECORD_CONFLICT, Notices.PUBLISH, note);
  }

  @Test
  void theEventNameIsTheObjectNameAndADigestOfTheCondition() {
    Notice n = conflict(route("web", "uid-1"), "held by someone");

    assertThat(n.eventName()).matches("web\\.[0-9a-f]{16}");
    assertThat(conflict(route("web", "uid-1"), "held by someone").eventName())
        .isEqualTo(n.eventName());
    assertThat(conflict(route("web", "uid-1"), "held by someone else").eventName())
        .isNotEqualTo(n.eventName());
    assertThat(conflict(route("web", "uid-2"), "held by someone").eventName())
        .isNotEqualTo(n.eventName());
  }

  @Test
  void theEventNameIsAValidNameForAnyObjectName() {
    String longName = "a".repeat(250) + ".b";
    for (String name : new String[] {"web.example", longName, "Web_Route!", "---", "a..b"}) {
      String eventName = conflict(route(name, null), "x").eventName();
      assertThat(eventName).hasSizeLessThanOrEqualTo(253);
      assertThat(ObjectNames.isSubdomain(eventName)).as(eventName).isTrue();
    }
  }

  @Test
  void aClusterScopedSubjectsEventsGoToTheDefaultNamespace() {
    Notice n = conflict(new Subject("v1", "Node", null, "node-1", null), "x");

    assertThat(n.namespace()).isEqualTo("default");
    assertThat(conflict(route("web", null), "x").namespace()).isEqualTo("shop");
  }

  @Test
  void cutsALongNoteToTheApiLimitOnACharacterBoundary() {
    Notice n = conflict(route("web", null), "é".repeat(2000));

    assertThat(n.note().getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(Notice.MAX_NOTE_BYTES);
    assertThat(n.note()).startsWith("éé").endsWith(" …");
    assertThat(conflict(route("web", null), "short").note()).isEqualTo("short");
  }

  @Test
  void blankSubjectFieldsAreUnknown() {
    Subject s = new Subject(" ", "HTTPRoute", "", "web", "");

    assertThat(s.apiVersion()).isNull();
    assertThat(s.namespace()).isNull();
    assertThat(s.uid()).isNull();
    assertThat(s).hasToString("HTTPRoute/web");
  }
}
