package io.varve.verify.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.command.ExitStatus;
import java.io.OutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/**
 * The reliability suite's verdict as an exit status: a failed check is not a failed environment.
 */
class ReliabilityExitStatusTest {
  private final Results results = new Results(new PrintStream(OutputStream.nullOutputStream()));

  @Test
  void every_check_held_is_ok() {
    results.check("server_kill.lost", true, "0");
    assertThat(ReliabilityCommand.exitStatus(results, false)).isEqualTo(ExitStatus.OK);
  }

  @Test
  void a_failed_check_completes_with_errors() {
    results.check("server_kill.lost", false, "0");
    assertThat(ReliabilityCommand.exitStatus(results, false))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS);
  }

  @Test
  void servers_that_could_not_be_started_abort_the_run() {
    results.fail("reliability.error", "Cassandra is not built");
    assertThat(ReliabilityCommand.exitStatus(results, true))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR);
  }
}
