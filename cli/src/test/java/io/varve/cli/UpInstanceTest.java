package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.VarveHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * The record of the instance that {@code up} starts ({@code .varve/server/instance.properties}),
 * and which ports {@code status} and {@code down} take from it, in a Varve home of its own (a
 * temporary directory). Starts nothing.
 */
class UpInstanceTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();
  @TempDir Path home;

  @BeforeEach
  void useTheTemporaryHome() {
    System.setProperty(VarveHome.PROPERTY, home.toString());
  }

  @AfterEach
  void forgetIt() {
    System.clearProperty(VarveHome.PROPERTY);
  }

  @Test
  void a_record_reads_back_as_written_and_leaves_no_temporary_file_behind() throws IOException {
    UpInstance instance = new UpInstance(18080, 29142, 29200, 3, 1, true);
    Instances.recordUp(instance);
    Instances.recordUp(instance);

    assertThat(Instances.upRecord()).isEqualTo(home.resolve(".varve/server/instance.properties"));
    assertThat(UpInstance.read(Instances.upRecord())).contains(instance);
    assertThat(Instances.lastUp()).isEqualTo(instance);
    try (Stream<Path> files = Files.list(Instances.serverHome())) {
      assertThat(files).containsExactly(Instances.upRecord());
    }
  }

  @Test
  void without_a_record_status_and_down_take_the_defaults_and_an_older_secure_marker()
      throws IOException {
    assertThat(UpInstance.read(Instances.upRecord())).isEmpty();
    assertThat(Instances.lastUp()).isEqualTo(new UpInstance(8080, 9042, 9200, 1, 1, false));

    Files.createDirectories(Instances.serverHome());
    Files.writeString(Instances.serverHome().resolve("secure"), "left by an older ./varve up\n");
    assertThat(Instances.lastUp().secure()).isTrue();
    Instances.recordUp(UpInstance.defaults(1, false));
    assertThat(Instances.serverHome().resolve("secure")).doesNotExist();
    assertThat(Instances.lastUp().secure()).isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "port=x              | port: x (expected: a number)",
        "cql-port=0          | cql-port: 0 (expected: 1..65535)",
        "opensearch-port=    | opensearch-port:  (expected: a number)",
        "nodes=10            | nodes: 10 (expected: 1..9)",
        "servers=9           | servers: 9 (expected: 1..8)",
        "servers=0           | servers: 0 (expected: 1..8)",
        "secure=yes          | secure: yes (expected: true or false)",
        "#nodes=1            | nodes: missing (expected: a number)",
      })
  void a_bad_record_names_the_file_the_key_the_value_and_what_was_expected(
      String line, String message) throws IOException {
    Instances.recordUp(new UpInstance(18080, 29142, 29200, 1, 1, false));
    String key = line.substring(line.startsWith("#") ? 1 : 0, line.indexOf('='));
    Path file = Instances.upRecord();
    Files.writeString(file, Files.readString(file).replaceFirst("(?m)^" + key + "=.*$", line));

    assertThatThrownBy(Instances::lastUp)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(file + ": " + message + ". Fix it, or delete it");
    assertThat(VarveCli.run("status")).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(streams.err()).contains(file + ": " + message);
  }

  @Test
  void a_record_without_servers_written_before_up_servers_means_one_server() throws IOException {
    Instances.recordUp(new UpInstance(18080, 29142, 29200, 1, 3, false));
    assertThat(Instances.lastUp().servers()).isEqualTo(3);
    Path file = Instances.upRecord();
    Files.writeString(file, Files.readString(file).replaceFirst("(?m)^servers=.*\\n", ""));
    assertThat(Files.readString(file)).doesNotContain("servers");
    assertThat(Instances.lastUp()).isEqualTo(new UpInstance(18080, 29142, 29200, 1, 1, false));
  }

  @Test
  void servers_whose_last_port_is_beyond_65535_are_refused_naming_both_keys() {
    assertThatThrownBy(() -> new UpInstance(65534, 9042, 9200, 1, 3, false))
        .hasMessage(
            "servers: 3 from port 65534 (expected: the last server's port, 65536, at most 65535)");
  }

  @Test
  void a_port_given_to_status_or_down_replaces_the_recorded_one_and_no_other() {
    UpInstance recorded = new UpInstance(18080, 29142, 29200, 3, 1, true);

    StatusCommand status = CommandLine.populateCommand(new StatusCommand(), "--cql-port", "29143");
    DownCommand down = CommandLine.populateCommand(new DownCommand(), "--port", "18081");

    assertThat(status.options.over(recorded))
        .isEqualTo(new UpInstance(18080, 29143, 29200, 3, 1, true));
    assertThat(down.options.over(recorded))
        .isEqualTo(new UpInstance(18081, 29142, 29200, 3, 1, true));
    assertThat(CommandLine.populateCommand(new StatusCommand()).options.over(recorded))
        .isEqualTo(recorded);
  }

  /**
   * {@code up} records its ports before it starts anything: here OpenSearch is not built, so
   * nothing starts, and {@code status} then looks where {@code up} would have started them.
   */
  @Test
  void up_records_its_ports_before_anything_starts_and_status_reports_on_them() {
    assertThat(
            VarveCli.run(
                "up", "--port", "18080", "--cql-port", "29142", "--opensearch-port", "29200"))
        .isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(streams.err()).contains("OpenSearch is not built");
    assertThat(Instances.lastUp()).isEqualTo(new UpInstance(18080, 29142, 29200, 1, 1, false));

    assertThat(VarveCli.run("status")).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out())
        .endsWith(
            """
            cassandra: stopped cql=127.0.0.1:29142
            opensearch: stopped endpoint=http://127.0.0.1:29200
            varve: not running api=http://127.0.0.1:18080
            """);
  }
}
