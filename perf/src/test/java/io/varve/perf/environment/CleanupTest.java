package io.varve.perf.environment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CleanupTest {

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Cleanup cleanup =
      new Cleanup("perf test", new PrintStream(err, true, StandardCharsets.UTF_8));

  @Test
  void undoes_the_last_step_first_and_each_step_once() {
    List<String> done = new ArrayList<>();
    cleanup.add("stop the node", () -> done.add("node"));
    cleanup.add("stop the server", () -> done.add("server"));
    cleanup.add("drop the keyspace", () -> done.add("keyspace"));
    assertThat(cleanup.pending()).isTrue();

    cleanup.run();
    cleanup.run();

    assertThat(done).containsExactly("keyspace", "server", "node");
    assertThat(cleanup.pending()).isFalse();
  }

  @Test
  void a_failing_step_is_reported_and_the_steps_before_it_still_run() {
    List<String> done = new ArrayList<>();
    cleanup.add("stop the node", () -> done.add("node"));
    cleanup.add(
        "stop the server",
        () -> {
          throw new IllegalStateException("no such process");
        });

    cleanup.run();

    assertThat(done).containsExactly("node");
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "perf test: could not stop the server: java.lang.IllegalStateException: no such process\n");
  }
}
