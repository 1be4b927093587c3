package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.VarveHome;
import io.varve.local.server.LocalVarveServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code status} and {@code down} act on the instance that {@code up} recorded, and on the
 * processes this home started only, with real processes in a Varve home of its own (a temporary
 * directory): a stand-in for this home's server (a {@code sleep} whose command line is the
 * server's, as the launcher's own tests use) behind a {@code /health} that answers on the recorded
 * port, and {@code sleep} processes of no home named by this home's pid files. Runs no Cassandra,
 * OpenSearch or Varve server; a second or two.
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
  void status_and_down_act_on_the_ports_up_recorded_and_on_the_server_this_home_started()
      throws Exception {
    int api = freePort();
    int cql = freePort();
    int opensearch = freePort();
    Instances.recordUp(new UpInstance(api, cql, opensearch, 1, 1, false));
    Process server = serverOfThisHome();
    answerHealth(api);

    assertThat(VarveCli.run("status")).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    String endpoint = "http://127.0.0.1:" + api;
    assertThat(streams.out().lines())
        .containsExactly(
            "cassandra: stopped cql=127.0.0.1:" + cql,
            "opensearch: stopped endpoint=http://127.0.0.1:" + opensearch,
            "varve: running pid="
                + server.pid()
                + " api="
                + endpoint
                + " docs="
                + endpoint
                + "/docs/");

    // An option given to status replaces the recorded port: nothing answers there.
    int other = freePort();
    assertThat(VarveCli.run("status", "--port", Integer.toString(other)))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out())
        .contains("varve: starting pid=" + server.pid() + " api=http://127.0.0.1:" + other);

    assertThat(VarveCli.run("down")).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .contains("varve: stopped pid=" + server.pid() + " api=" + endpoint)
        .contains("cassandra: was not running", "opensearch: was not running");
    assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("this home's server stopped").isTrue();
    assertThat(Instances.serverHome().resolve("server.pid")).doesNotExist();
  }

  @Test
  void a_pid_file_naming_a_process_this_home_did_not_start_is_reported_stale_and_never_signalled()
      throws Exception {
    int api = freePort();
    Instances.recordUp(new UpInstance(api, freePort(), freePort(), 1, 1, false));
    // Another server answers on the recorded port, and the pid files name live processes of no
    // home, as after a reboot that gave their pids to others.
    answerHealth(api);
    UpInstance instance = Instances.lastUp();
    List<Path> pidFiles =
        List.of(
            Instances.server(api, List.of(), false).pidFile(),
            Instances.cassandra(instance.cqlPort(), false).pidFile(),
            Instances.opensearch(instance.opensearchPort()).pidFile());
    List<Process> foreign = new ArrayList<>();
    for (Path pidFile : pidFiles) {
      Process process = start("sleep", "600");
      foreign.add(process);
      Files.createDirectories(pidFile.getParent());
      Files.writeString(pidFile, process.pid() + "\n");
    }

    assertThat(VarveCli.run("status")).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out())
        .doesNotContain("running")
        .contains(
            "cassandra: stale pid file (pid "
                + foreign.get(1).pid()
                + " does not run this home's Cassandra) cql=",
            "opensearch: stale pid file (pid "
                + foreign.get(2).pid()
                + " does not run this home's OpenSearch)",
            "varve: stale pid file (pid "
                + foreign.get(0).pid()
                + " does not run this home's Varve server) api=http://127.0.0.1:"
                + api);

    assertThat(VarveCli.run("down")).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .doesNotContain(": stopped")
        .contains(
            "varve: removed its stale pid file "
                + pidFiles.get(0)
                + " (pid "
                + foreign.get(0).pid()
                + " does not run this home's Varve server; nothing signalled)");
    assertThat(foreign).allMatch(Process::isAlive, "alive after down");
    assertThat(pidFiles).noneMatch(Files::exists);

    assertThat(VarveCli.run("status")).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out()).contains("varve: not running api=http://127.0.0.1:" + api);
  }

  @Test
  void up_on_other_ports_while_the_recorded_instance_runs_is_refused_and_the_record_kept()
      throws Exception {
    UpInstance recorded = new UpInstance(freePort(), freePort(), freePort(), 1, 1, false);
    Instances.recordUp(recorded);
    serverOfThisHome();

    int other = freePort();
    assertThat(VarveCli.run("up", "--port", Integer.toString(other), "--no-opensearch"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());

    assertThat(streams.err())
        .contains("the local servers run on " + recorded.ports())
        .contains("stop them with ./varve down first");
    assertThat(Instances.lastUp()).isEqualTo(recorded);
    assertThat(home.resolve(".varve/cassandra")).doesNotExist();
  }

  @Test
  void status_and_down_cover_every_server_of_up_servers_n_and_one_left_by_an_earlier_up()
      throws Exception {
    int api = freePort();
    Instances.recordUp(new UpInstance(api, freePort(), freePort(), 1, 2, false));
    Process first = serverOfThisHome(1);
    Process second = serverOfThisHome(2);
    Process third = serverOfThisHome(3); // left by an earlier up --servers 3
    answerHealth(api);

    assertThat(VarveCli.run("status")).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out())
        .contains("varve: running pid=" + first.pid() + " api=http://127.0.0.1:" + api + " docs=")
        .contains(
            "varve server2: starting pid=" + second.pid() + " api=http://127.0.0.1:" + (api + 1))
        .contains(
            "varve server3: starting pid=" + third.pid() + " api=http://127.0.0.1:" + (api + 2));

    assertThat(VarveCli.run("down")).isEqualTo(ExitStatus.OK.code());
    assertThat(streams.out())
        .contains("varve: stopped pid=" + first.pid())
        .contains("varve server2: stopped pid=" + second.pid())
        .contains("varve server3: stopped pid=" + third.pid());
    for (Process server : List.of(first, second, third)) {
      assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("stopped").isTrue();
    }
    assertThat(Instances.serverHome(2).resolve("server.pid")).doesNotExist();
  }

  /**
   * A process that the launcher takes for this home's server: its command line names the server's
   * main class and this home's server directory; recorded in its pid file.
   */
  private Process serverOfThisHome() throws IOException {
    return serverOfThisHome(1);
  }

  /** As {@link #serverOfThisHome()}, for server {@code k} of {@code up --servers N}. */
  private Process serverOfThisHome(int k) throws IOException {
    Path serverHome = Instances.serverHome(k);
    Process process =
        start(
            "/bin/sh",
            "-c",
            "sleep 60; :",
            "varve",
            "-Dvarve.server.home=" + serverHome,
            LocalVarveServer.MAIN_CLASS);
    Files.createDirectories(serverHome);
    Files.writeString(serverHome.resolve("server.pid"), process.pid() + "\n");
    return process;
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
