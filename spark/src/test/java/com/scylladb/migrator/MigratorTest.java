package com.scylladb.migrator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The migrator's main class: its job file from {@code spark.scylla.config}, or a clear refusal. */
class MigratorTest {

  private static String stderrOf(Runnable run) {
    PrintStream saved = System.err;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      run.run();
    } finally {
      System.setErr(saved);
    }
    return buffer.toString(StandardCharsets.UTF_8);
  }

  @Test
  void without_spark_scylla_config_it_exits_2_naming_the_key_and_how_to_give_it() {
    int[] status = new int[1];
    String err = stderrOf(() -> status[0] = Migrator.run(new String[0], null));

    assertThat(status[0]).isEqualTo(2);
    assertThat(err)
        .contains("spark.scylla.config: missing")
        .contains("--conf spark.scylla.config=PATH");
  }

  @Test
  void it_runs_the_job_file_it_names_and_warns_about_arguments_it_does_not_read() {
    int[] status = new int[1];
    String err =
        stderrOf(() -> status[0] = Migrator.run(new String[] {"--verbose"}, "/no/such/job.yaml"));

    assertThat(err).contains("the arguments [--verbose] have no effect");
    assertThat(status[0]).as("the job file is read: a missing one is invalid input").isEqualTo(2);
    assertThat(err).contains("/no/such/job.yaml");
  }
}
