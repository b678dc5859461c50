package dev.cairn.strategyengine.api;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import dev.cairn.strategyengine.stream.GslbReports;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

/** The explain API's answers when it cannot look anything up (the happy path is in the IT). */
class DecisionControllerTest {

  private final MockMvc mvc =
      MockMvcBuilders.standaloneSetup(
              new DecisionController(
                  new DecisionQueries(new StreamsBuilderFactoryBean(), new GslbReports())))
          .build();

  @Test
  void answers503WhileStreamsIsNotRunning() throws Exception {
    mvc.perform(get("/api/v1/decisions/default/app"))
        .andExpect(status().isServiceUnavailable())
        .andExpect(jsonPath("$.error").value("unavailable"))
        .andExpect(jsonPath("$.message").value("Kafka Streams is not started, not RUNNING"));
    mvc.perform(get("/api/v1/decisions").param("hostname", "app.example.com"))
        .andExpect(status().isServiceUnavailable());
  }

  @Test
  void answers400ForAnInvalidHostnameOrNoQuery() throws Exception {
    mvc.perform(get("/api/v1/decisions").param("hostname", "bad_name"))
        .andExpect(status().isBadRequest())
        .andExpect(jsonPath("$.error").value("bad-request"));
    mvc.perform(get("/api/v1/decisions")).andExpect(status().isBadRequest());
  }
}
