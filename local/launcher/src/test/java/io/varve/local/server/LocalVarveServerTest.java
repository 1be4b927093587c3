package io.varve.local.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.local.LocalServerException;
import io.varve.local.LocalServerStatus;
import io.varve.local.Loopback;
import io.varve.local.Product;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Varve server's process around {@code varve serve}, with stand-in processes instead. */
class LocalVarveServerTest {

  @TempDir Path dir;
  private LocalVarveServerSettings settings;
  private Process standIn;

  @BeforeEach
  void settings() {
    settings = LocalVarveServerSettings.forDevelopment(dir).toBuilder().port(38080).build();
  }

  @AfterEach
  void stopStandIn() {
    if (standIn != null) {
      standIn.destroyForcibly();
    }
  }

  @Test
  void the_server_of_varve_up_lives_in_varve_server_on_port_8080() {
    LocalVarveServerSettings up = LocalVarveServerSettings.forDevelopment(dir);

    assertThat(up.home()).isEqualTo(dir.resolve(".varve/server"));
    assertThat(up.endpoint()).hasToString("http://127.0.0.1:8080");
    assertThat(up.log()).isEqualTo(dir.resolve(".varve/server/server.log"));
    assertThat(up.pidFile()).isEqualTo(dir.resolve(".varve/server/server.pid"));
    assertThat(LocalVarveServerSettings.builtClasspath(dir))
        .isEqualTo(
            dir.resolve("cli/target/varve-cli.jar") + ":" + dir.resolve("cli/target/lib") + "/*");
  }

  @Test
  void runs_varve_serve_with_its_heap_classpath_and_arguments() {
    LocalVarveServer server =
        new LocalVarveServer(
            settings.toBuilder()
                .heapSize("512m")
                .classpath("a.jar:lib/*")
                .serveArgs(List.of("--config", "varve.yaml"))
                .build());

    assertThat(server.command())
        .startsWith(settings.javaExecutable().toString())
        .containsSubsequence(
            "-Xms512m",
            "-Xmx512m",
            "-cp",
            "a.jar:lib/*",
            LocalVarveServer.MAIN_CLASS,
            "serve",
            "--config",
            "varve.yaml")
        .contains("-Dvarve.server.home=" + settings.home(), "-Dvarve.home=" + dir);
  }

  @Test
  void exits_on_an_out_of_memory_error_whatever_its_jvm_options() {
    assertThat(new LocalVarveServer(settings).command())
        .containsSubsequence("-Xmx1g", "-XX:+ExitOnOutOfMemoryError", "-cp");
    assertThat(
            new LocalVarveServer(settings.toBuilder().jvmOptions(List.of("-XX:+UseZGC")).build())
                .command())
        .contains("-XX:+ExitOnOutOfMemoryError");
  }

  @Test
  void runs_the_collector_of_its_jvm_options_g1_unless_told_otherwise() {
    assertThat(new LocalVarveServer(settings).command())
        .containsSubsequence("-Xmx1g", "-XX:+UseG1GC", "-cp")
        .doesNotContain("-XX:+UseZGC");

    LocalVarveServer zgc =
        new LocalVarveServer(
            settings.toBuilder().jvmOptions(List.of("-XX:+UseZGC", "-Xlog:gc")).build());

    assertThat(zgc.command())
        .containsSubsequence(
            "-Xmx1g", "-XX:+UseZGC", "-Xlog:gc", "-cp", LocalVarveServer.MAIN_CLASS)
        .doesNotContain("-XX:+UseG1GC");
    // every other copy keeps them
    assertThat(zgc.settings().toBuilder().port(38081).heapSize("512m").build().jvmOptions())
        .containsExactly("-XX:+UseZGC", "-Xlog:gc");
  }

  @Test
  void a_home_without_pid_file_is_stopped_and_does_not_answer() {
    LocalVarveServer server = new LocalVarveServer(settings);

    assertThat(server.status())
        .isEqualTo(
            new LocalServerStatus(
                Product.VARVE, LocalServerStatus.State.STOPPED, 0, Loopback.address(38080)));
    assertThat(server.isReady()).isFalse();
    assertThat(server.stop(Duration.ofSeconds(1))).isFalse();
  }

  @Test
  void stop_terminates_the_server_of_this_home_only() throws Exception {
    standIn = standIn(dir.resolve("other"));
    writePidFile(standIn.pid());
    assertThat(new LocalVarveServer(settings).status().state())
        .isEqualTo(LocalServerStatus.State.STALE);

    standIn.destroyForcibly().waitFor();
    standIn = standIn(settings.home());
    writePidFile(standIn.pid());
    LocalVarveServer server = new LocalVarveServer(settings);
    assertThat(server.status().state()).isEqualTo(LocalServerStatus.State.RUNNING);
    assertThat(server.stop(Duration.ofSeconds(10))).isTrue();
    assertThat(standIn.waitFor(5, TimeUnit.SECONDS)).as("stand-in gone").isTrue();
    assertThat(settings.pidFile()).doesNotExist();
  }

  @Test
  void a_server_with_a_command_line_past_4_kib_is_recognised() throws Exception {
    // as when run from the expanded classpath of the command line: the JDK then gives no arguments
    standIn =
        new ProcessBuilder(
                "/bin/sh",
                "-c",
                "sleep 60; :",
                "varve",
                "-Dvarve.server.home=" + settings.home(),
                "-cp",
                "x".repeat(8192),
                LocalVarveServer.MAIN_CLASS)
            .start();
    writePidFile(standIn.pid());
    LocalVarveServer server = new LocalVarveServer(settings);

    assertThat(server.status().state()).isEqualTo(LocalServerStatus.State.RUNNING);
    assertThat(server.stop(Duration.ofSeconds(10))).isTrue();
    assertThat(standIn.waitFor(5, TimeUnit.SECONDS)).as("stand-in gone").isTrue();
  }

  @Test
  void start_refuses_a_taken_api_port_and_launches_nothing() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      LocalVarveServer server =
          new LocalVarveServer(settings.toBuilder().port(taken.getLocalPort()).build());

      assertThatThrownBy(server::start)
          .isInstanceOf(LocalServerException.class)
          .hasMessageContaining("Port 127.0.0.1:" + taken.getLocalPort() + " (API) is in use")
          .extracting(e -> ((LocalServerException) e).product())
          .isEqualTo(Product.VARVE);
      assertThat(settings.pidFile()).doesNotExist();
    }
  }

  @Test
  void a_server_with_a_secure_api_is_asked_over_https_by_every_copy_of_its_settings() {
    LocalVarveServerSettings secure =
        settings.toBuilder()
            .secureApi(new SecureApi(dir.resolve("ca.pem"), dir.resolve("api-token")))
            .build();

    assertThat(secure.endpoint()).hasToString("https://127.0.0.1:38080");
    assertThat(secure.toBuilder().port(38081).heapSize("512m").build().endpoint())
        .hasToString("https://127.0.0.1:38081");
    assertThat(settings.endpoint()).hasToString("http://127.0.0.1:38080");
  }

  @Test
  void a_secure_api_whose_authority_holds_no_certificate_fails_the_check_naming_the_file()
      throws IOException {
    Files.writeString(dir.resolve("ca.pem"), "not a certificate\n");
    Files.writeString(dir.resolve("api-token"), "token\n");
    LocalVarveServer server =
        new LocalVarveServer(
            settings.toBuilder()
                .secureApi(new SecureApi(dir.resolve("ca.pem"), dir.resolve("api-token")))
                .build());

    assertThatThrownBy(server::isReady)
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining("Cannot trust the certificates of " + dir.resolve("ca.pem"));
  }

  @Test
  void settings_name_the_value_and_what_was_expected() {
    assertThatThrownBy(() -> settings.toBuilder().port(0).build())
        .hasMessage("port: 0 (expected: 1..65535)");
    assertThatThrownBy(() -> settings.toBuilder().heapSize("lots").build())
        .hasMessage("heapSize: lots (expected: megabytes or gigabytes, like 512m or 1g)");
    assertThatThrownBy(() -> settings.toBuilder().jvmOptions(List.of("UseZGC")).build())
        .hasMessage("jvmOptions: UseZGC (expected: JVM options, each starting with -)");
    assertThatThrownBy(
            () -> settings.toBuilder().jvmOptions(List.of("-XX:+UseZGC", "-Xmx4g")).build())
        .hasMessage("jvmOptions: -Xmx4g (expected: no heap size: it is heapSize)");
    assertThatThrownBy(() -> settings.toBuilder().jvmOptions(List.of("-cp")).build())
        .hasMessage("jvmOptions: -cp (expected: no classpath: it is classpath)");
  }

  /** A process whose command line looks like the Varve server of {@code home} to the launcher. */
  private static Process standIn(Path home) throws IOException {
    return new ProcessBuilder(
            "/bin/sh",
            "-c",
            "sleep 60; :",
            "varve",
            "-Dvarve.server.home=" + home,
            LocalVarveServer.MAIN_CLASS)
        .start();
  }

  private void writePidFile(long pid) throws IOException {
    Files.createDirectories(settings.home());
    Files.writeString(settings.pidFile(), pid + "\n");
  }
}
