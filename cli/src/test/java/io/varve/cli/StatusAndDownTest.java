package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.VarveHome;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status} and {@code down} act on the processes this home started only, with real processes
 * in a Varve home of its own (a temporary directory): {@code sleep} processes of no home named by
 * this home's pid files, and a {@code /health} that answers on the server's port. Runs no
 * Cassandra, OpenSearch or Varve server; a second or two.
 */
class StatusAndDownTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();
  @TempDir Path home;

  private final List<Process> processes = new ArrayList<>();
  private HttpServer health;

  @BeforeEach
  void useTheTemporaryHome() {
    System.setProperty(VarveHome.PROPERTY, home.toString());
  }

  @AfterEach
  void stopEverything() {
    System.clearProperty(VarveHome.PROPERTY);
    processes.forEach(Process::destroyForcibly);
    if (health != null) {
      health.stop(0);
    }
  }

  @Test
  void a_pid_file_naming_a_process_this_home_did_not_start_is_reported_stale_and_never_signalled()
      throws Exception {
    int api = freePort();
    String port = Integer.toString(api);
    // Another server answers on the server's port, and the pid files name live processes of no
    // home, as after a reboot that gave their pids to others.
    answerHealth(api);
    List<Path> pidFiles =
        List.of(
            Instances.server(api, List.of(), false).pidFile(),
            Instances.cassandra(9042, false).pidFile(),
            Instances.opensearch(9200).pidFile());
    List<Process> foreign = new ArrayList<>();
    for (Path pidFile : pidFiles) {
      Process process = start("sleep", "600");
      foreign.add(process);
      Files.createDirectories(pidFile.getParent());
      Files.writeString(pidFile, process.pid() + "\n");
    }

    assertThat(VarveCli.run("status", "--port", port))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out())
        .doesNotContain("running")
        .contains(
            "cassandra: stale pid file (pid "
                + foreign.get(1).pid()
                + " is not this home's Cassandra) cql=",
            "opensearch: stale pid file (pid "
                + foreign.get(2).pid()
                + " is not this home's OpenSearch)",
            "varve: stale pid file (pid "
                + foreign.get(0).pid()
                + " is not this home's Varve server) api=http://127.0.0.1:"
                + api);

    assertThat(VarveCli.run("down", "--port", port)).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .doesNotContain(": stopped")
        .contains(
            "varve: removed its stale pid file "
                + pidFiles.get(0)
                + " (pid "
                + foreign.get(0).pid()
                + " is not this home's Varve server; nothing signalled)");
    assertThat(foreign).allMatch(Process::isAlive, "alive after down");
    assertThat(pidFiles).noneMatch(Files::exists);

    assertThat(VarveCli.run("status", "--port", port))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out()).contains("varve: not running api=http://127.0.0.1:" + api);
  }

  /** Answers {@code GET /health} with 200 on this port of 127.0.0.1, as a ready server does. */
  private void answerHealth(int port) throws IOException {
    health = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
    health.createContext(
        "/health",
        exchange -> {
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    health.start();
  }

  private Process start(String... command) throws IOException {
    Process process = new ProcessBuilder(command).start();
    processes.add(process);
    return process;
  }

  private static int freePort() throws IOException {
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return free.getLocalPort();
    }
  }
}
