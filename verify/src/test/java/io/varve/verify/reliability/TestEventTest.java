package io.varve.verify.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestEventTest {

  @Test
  void write_request_is_the_api_json_with_base64_item() throws Exception {
    TestEvent event =
        new TestEvent(
            "s-1",
            Instant.parse("2026-01-01T00:00:00.120Z"),
            "id-1",
            "ios".getBytes(StandardCharsets.UTF_8));

    var json = VarveClient.JSON.readTree(TestEvent.writeRequest("ns", List.of(event, event)));

    assertThat(json.path("namespace").asText()).isEqualTo("ns");
    assertThat(json.path("events")).hasSize(2);
    var first = json.path("events").get(0);
    assertThat(first.path("eventTime").asText()).isEqualTo("2026-01-01T00:00:00.120Z");
    assertThat(first.path("eventItems").get(0).path("eventItemKey").asText()).isEqualTo("dg==");
    assertThat(first.path("eventItems").get(0).path("eventItemValue").asText()).isEqualTo("aW9z");
  }

  @Test
  void written_indexes_of_an_answer() throws Exception {
    assertThat(
            VarveClient.writtenIndexes(
                "{\"writtenCount\":2,\"writtenIndexes\":[0,2],\"errors\":[]}")
                .stream())
        .containsExactly(0, 2);
  }

  @Test
  void reshaper_progress_and_resume_lines_are_parsed() {
    assertThat(
            ReshaperRun.parseLine("migrate: ranges 146/256 (57.0%), rows 559,800, 41,200 rows/s"))
        .isEqualTo(new int[] {146, 256, -1});
    assertThat(
            ReshaperRun.parseLine(
                "migrate: done: ranges 256/256 (64 done by earlier runs), rows read 60,000, rows written 45,000"))
        .isEqualTo(new int[] {256, 256, 64});
  }
}
