package io.varve.perf.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLockTest {

  @TempDir Path home;

  @Test
  void a_second_run_is_refused_naming_the_first_and_starts_once_it_ended() throws Exception {
    RunLock first = RunLock.take(home, "perf kv");
    assertThatThrownBy(() -> RunLock.take(home, "perf dataplane"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("perf dataplane not started")
        .hasMessageContaining("perf kv, pid " + ProcessHandle.current().pid());
    first.close();
    RunLock.take(home, "perf dataplane").close();
  }

  @Test
  void a_run_of_another_process_holds_the_lock_until_that_process_dies() throws Exception {
    Process holder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Holder.class.getName(),
                home.toString())
            .redirectErrorStream(true)
            .start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("held");
      assertThatThrownBy(() -> RunLock.take(home, "perf ts"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("perf sla, pid " + holder.pid());
    } finally {
      // killed, it never releases the lock itself: the operating system does
      holder.destroyForcibly();
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    RunLock.take(home, "perf ts").close();
  }

  /** Takes the lock in a process of its own, says so, and waits to be killed. */
  static final class Holder {
    public static void main(String[] args) throws Exception {
      RunLock.take(Path.of(args[0]), "perf sla");
      System.out.println("held");
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
