package dev.cairn.commonmodel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.commonmodel.GoldenRecords.Golden;
import dev.cairn.commonmodel.codec.CairnJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code docs/contracts.md} shows every topic and its golden message as they are. */
class ContractsDocTest {

  private static final Path DOC = Path.of("..", "docs", "contracts.md");
  private static final JsonMapper MAPPER = CairnJson.newMapper();

  private static String doc;
  private static List<JsonNode> jsonExamples;

  @BeforeAll
  static void readDoc() throws IOException {
    doc = Files.readString(DOC, StandardCharsets.UTF_8);
    jsonExamples = new ArrayList<>();
    Matcher block = Pattern.compile("```json\\n(.*?)```", Pattern.DOTALL).matcher(doc);
    while (block.find()) {
      jsonExamples.add(MAPPER.readTree(block.group(1)));
    }
  }

  static List<Golden> goldens() {
    return GoldenRecords.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void listsTheTopicWithProducerValueTypeAndCleanupPolicy(Golden golden) {
    TopicSpec<?> topic = golden.topic();

    assertThat(doc)
        .containsPattern(
            Pattern.quote("| `" + topic.name() + "` | " + topic.producer() + " | ")
                + ".*"
                + Pattern.quote("| `" + topic.valueType().getSimpleName() + "` | ")
                + topic.cleanupPolicy()
                + " \\|");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goldens")
  void showsTheGoldenKeyAndValueAndLinksTheFile(Golden golden) {
    assertThat(doc)
        .contains("Key: `" + golden.key() + "`")
        .contains("(../common-model/src/test/resources/" + golden.resource() + ")");
    assertThat(jsonExamples)
        .as("a json example equal to %s", golden.resource())
        .contains(MAPPER.readTree(ContractGoldenTest.golden(golden)));
  }
}
