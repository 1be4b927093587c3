package io.varve.reshaper.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.command.ExitStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Command-line mistakes exit with status 2 before anything connects or runs; a job's outcomes map
 * onto the exit-status table (the ITs of the job package run each one for real).
 */
class ReshaperCliTest {
  @TempDir Path dir;

  @Test
  void usage_errors_and_unreadable_job_files_exit_2() throws Exception {
    assertThat(ReshaperCli.execute("migrate")).isEqualTo(2);
    assertThat(ReshaperCli.execute("migrate", "--bogus")).isEqualTo(2);
    assertThat(ReshaperCli.execute("migrate", "validate")).isEqualTo(2);
    assertThat(ReshaperCli.execute("migrate", "--config", dir.resolve("none.yaml").toString()))
        .isEqualTo(2);
    Path broken = Files.writeString(dir.resolve("broken.yaml"), "source: [unclosed\n");
    assertThat(ReshaperCli.execute("migrate", "--config", broken.toString())).isEqualTo(2);
    assertThat(ReshaperCli.execute()).isEqualTo(2);
  }

  @Test
  void every_job_outcome_has_its_exit_status() {
    Map<io.varve.reshaper.job.Outcome, ExitStatus> expected =
        Map.of(
            io.varve.reshaper.job.Outcome.OK, ExitStatus.OK,
            io.varve.reshaper.job.Outcome.COMPLETED_WITH_BAD_ROWS, ExitStatus.COMPLETED_WITH_ERRORS,
            io.varve.reshaper.job.Outcome.DIFFERENCES_FOUND, ExitStatus.COMPLETED_WITH_ERRORS,
            io.varve.reshaper.job.Outcome.INVALID_INPUT, ExitStatus.INVALID_INPUT,
            io.varve.reshaper.job.Outcome.TOO_MANY_BAD_ROWS, ExitStatus.ABORTED_TOO_MANY_ERRORS,
            io.varve.reshaper.job.Outcome.RESHAPE_CONFLICT, ExitStatus.ABORTED_TOO_MANY_ERRORS,
            io.varve.reshaper.job.Outcome.FATAL, ExitStatus.ABORTED_FATAL_ERROR);
    assertThat(expected).containsOnlyKeys(io.varve.reshaper.job.Outcome.values());
    expected.forEach(
        (outcome, status) -> assertThat(outcome.exitStatus()).as(outcome.name()).isEqualTo(status));
  }

  @Test
  void the_reshaper_page_gives_each_status_a_job_ends_with_by_its_code_and_name() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "reshaper.md"));
    for (io.varve.reshaper.job.Outcome outcome : io.varve.reshaper.job.Outcome.values()) {
      ExitStatus status = outcome.exitStatus();
      assertThat(page)
          .as("docs/reshaper.md's exit status table, for %s", outcome)
          .contains("| " + status.code() + " | `" + status.name() + "` |");
    }
  }

  @Test
  void replay_refuses_a_missing_file_it_was_given_and_has_nothing_to_do_without_one()
      throws Exception {
    Path job =
        Files.writeString(
            dir.resolve("job.yaml"),
            "source: {host: 10.0.0.1, keyspace:"
                + " ks, table: a}\ntarget: {host: 10.0.0.1, keyspace: ks, table: b}\nsavepoints: {path: "
                + dir.resolve("sp")
                + "}\n");
    assertThat(ReshaperCli.execute("migrate", "replay")).isEqualTo(2);
    assertThat(
            ReshaperCli.execute(
                "migrate",
                "replay",
                "--config",
                job.toString(),
                "--bad-rows",
                dir.resolve("none.bad-rows").toString()))
        .isEqualTo(2);
    // no bad-rows file at the job's path: no row failed, nothing to replay
    assertThat(ReshaperCli.execute("migrate", "replay", "--config", job.toString())).isZero();
  }

  @Test
  void help_exits_0() {
    assertThat(ReshaperCli.execute("--help")).isZero();
    assertThat(ReshaperCli.execute("migrate", "validate", "--help")).isZero();
    assertThat(ReshaperCli.execute("migrate", "replay", "--help")).isZero();
  }
}
