package io.varve.verify.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class StatusCountsTest {

  @Test
  void sorts_answers_into_accepted_refused_server_errors_and_others() {
    StatusCounts counts = new StatusCounts();
    for (int status : new int[] {200, 200, 429, 500, 503, 408, 413, 408}) {
      counts.record(status);
    }

    assertThat(counts.ok()).isEqualTo(2);
    assertThat(counts.refused()).isEqualTo(1);
    assertThat(counts.serverErrors()).isEqualTo(2);
    assertThat(counts.other()).isEqualTo("408:2,413:1");
    assertThat(counts.otherCount()).isEqualTo(3);
  }

  @Test
  void a_client_timeout_is_not_a_dropped_connection() {
    StatusCounts counts = new StatusCounts();
    counts.recordTransportError(
        new CompletionException(new HttpTimeoutException("request timed out")));
    counts.recordTransportError(new HttpTimeoutException("request timed out"));
    counts.recordTransportError(new CompletionException(new IOException("Connection reset")));

    assertThat(counts.timeouts()).isEqualTo(2);
    assertThat(counts.dropped()).isEqualTo(1);
    assertThat(counts.transportErrors()).isEqualTo(3);
  }

  @Test
  void nothing_else_is_reported_as_none() {
    assertThat(new StatusCounts().other()).isEqualTo("none");
  }
}
