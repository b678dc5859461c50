package dev.cairn.strategyengine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.unit.DataSize;

/** The engine's settings as Spring Boot binds them from {@code engine.*}. */
class StrategyEnginePropertiesTest {

  private static StrategyEngineProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("engine", StrategyEngineProperties.class);
  }

  @Test
  void producerBatchSizeDefaultsTo256KbAndTakesSizesWithUnits() {
    assertThat(bind(Map.of()).producerBatchSize()).isEqualTo(DataSize.ofKilobytes(256));
    assertThat(bind(Map.of("engine.producer-batch-size", "1MB")).producerBatchSize().toBytes())
        .isEqualTo(1_048_576);
    assertThat(bind(Map.of("engine.producer-batch-size", "16384")).producerBatchSize().toBytes())
        .isEqualTo(16_384);
  }

  @Test
  void aProducerBatchSizeOutsideWhatKafkaTakesIsRefusedByName() {
    for (String bad : new String[] {"0", "-1KB", "4GB"}) {
      assertThatThrownBy(() -> bind(Map.of("engine.producer-batch-size", bad)))
          .as(bad)
          .isInstanceOf(BindException.class)
          .rootCause()
          .hasMessageContaining("engine.producer-batch-size must be between 1B and 2GB");
    }
  }

  @Test
  void theLargestOutputDefaultsUnderKafkasRecordLimitAndIsCheckedByName() {
    assertThat(bind(Map.of()).maxOutputSize()).isEqualTo(DataSize.ofKilobytes(1000));
    assertThat(bind(Map.of("engine.max-output-size", "4MB")).maxOutputSize().toBytes())
        .isEqualTo(4L * 1024 * 1024);
    for (String bad : new String[] {"0", "1000B", "4GB"}) {
      assertThatThrownBy(() -> bind(Map.of("engine.max-output-size", bad)))
          .as(bad)
          .isInstanceOf(BindException.class)
          .rootCause()
          .hasMessageContaining("engine.max-output-size must be between 1KB and 2GB");
    }
  }
}
