package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.cassandra.session.CassandraSettings;
import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.server.auth.Permission;
import io.varve.server.auth.TokenGrant;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code varve up}'s options: which local servers it starts and what it gives the server. Starts
 * nothing.
 */
class UpCommandTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();

  @Test
  void starts_opensearch_before_cassandra_and_gives_it_to_the_server() {
    UpCommand up = CommandLine.populateCommand(new UpCommand());
    assertThat(up.startup().nodes())
        .extracting(LocalNode::name)
        .containsExactly("opensearch", "cassandra");
    assertThat(up.startup().nodes().get(0).address()).isEqualTo("http://127.0.0.1:9200");
    assertThat(String.join(" ", up.serverArgs()))
        .isEqualTo("--port 8080 --cassandra 127.0.0.1:9042 --opensearch http://127.0.0.1:9200");
  }

  @Test
  void the_opensearch_port_reaches_the_node_and_the_server() {
    UpCommand up =
        CommandLine.populateCommand(new UpCommand(), "--opensearch-port", "9201", "--port", "8081");
    assertThat(up.startup().nodes().get(0).address()).isEqualTo("http://127.0.0.1:9201");
    assertThat(up.serverArgs())
        .containsSubsequence("--port", "8081")
        .containsSubsequence("--opensearch", "http://127.0.0.1:9201");
  }

  @Test
  void no_opensearch_starts_cassandra_alone_and_the_server_without_index_store() {
    UpCommand up =
        CommandLine.populateCommand(new UpCommand(), "--no-opensearch", "--config", "varve.yaml");
    assertThat(up.startup().nodes()).extracting(LocalNode::name).containsExactly("cassandra");
    assertThat(up.serverArgs())
        .doesNotContain("--opensearch")
        .containsSubsequence("--config", "varve.yaml");
  }

  /** A checkout without OpenSearch built: the same early failure as a machine without a JDK 21+. */
  @Test
  void when_opensearch_cannot_start_nothing_starts_and_the_message_names_no_opensearch(
      @TempDir Path home) {
    System.setProperty(VarveHome.PROPERTY, home.toString());
    try {
      assertThat(VarveCli.run("up")).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    } finally {
      System.clearProperty(VarveHome.PROPERTY);
    }
    assertThat(streams.err())
        .contains("OpenSearch is not built")
        .contains("./varve up --no-opensearch");
    assertThat(home.resolve(".varve/cassandra")).doesNotExist();
    assertThat(home.resolve(".varve/server/server.pid")).doesNotExist();
  }

  @Test
  void nodes_start_a_cluster_seed_first_and_give_the_server_a_configuration_with_replication_3() {
    UpCommand up = CommandLine.populateCommand(new UpCommand(), "--nodes", "3", "--no-opensearch");

    assertThat(up.startup().nodes())
        .extracting(LocalNode::name)
        .containsExactly("cassandra node1", "cassandra node2", "cassandra node3");
    assertThat(up.startup().nodes())
        .extracting(LocalNode::address)
        .containsExactly("127.0.0.1:9042", "127.0.0.2:9042", "127.0.0.3:9042");
    assertThat(up.serverArgs()).doesNotContain("--cassandra").contains("--config");
    assertThat(up.serverArgs().get(up.serverArgs().size() - 1)).endsWith(".varve/server/up.yaml");
    assertThat(UpServerConfig.yaml(Instances.cluster(9042, 3, false)).lines())
        .contains(
            "  contactPoints: [\"127.0.0.1:9042\", \"127.0.0.2:9042\", \"127.0.0.3:9042\"]",
            "  localDatacenter: datacenter1",
            "  replication: {class: SimpleStrategy, replication_factor: 3}");
  }

  @Test
  void servers_run_on_the_port_and_the_ones_after_it_each_in_a_directory_of_its_own() {
    UpCommand up =
        CommandLine.populateCommand(
            new UpCommand(), "--servers", "3", "--port", "9090", "--no-opensearch");
    assertThat(up.instance().servers()).isEqualTo(3);
    assertThat(up.serverArgs(1)).containsSubsequence("--port", "9090");
    assertThat(up.serverArgs(3))
        .containsSubsequence("--port", "9092")
        .containsSubsequence("--cassandra", "127.0.0.1:9042");
    assertThat(Instances.serverHome(1)).isEqualTo(Instances.serverHome());
    assertThat(Instances.serverHome(3))
        .isEqualTo(Instances.serverHome().resolveSibling("server-3"));
  }

  @Test
  void servers_beyond_the_limit_are_refused_naming_the_option() {
    assertThat(VarveCli.run("up", "--servers", "9")).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(streams.err()).contains("--servers: 9 (expected: 1..8)");
  }

  @Test
  void nodes_with_a_config_file_of_the_users_is_refused_before_anything_starts() {
    assertThat(VarveCli.run("up", "--nodes", "3", "--config", "varve.yaml"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(streams.err()).contains("--config cannot be combined with --nodes");
  }

  @Test
  void secure_starts_cassandra_with_the_generated_material_and_gives_the_server_its_own_file(
      @TempDir Path home) {
    UpCommand up =
        inHome(
            home,
            () ->
                CommandLine.populateCommand(
                    new UpCommand(), UpSecureIT.SECURE_UP.toArray(String[]::new)));

    LocalCassandraSettings node = inHome(home, () -> up.cassandra().node(1).settings());
    assertThat(node.security()).contains(LocalCassandraSecurity.forDevelopment(home));
    assertThat(List.of(node.cqlPort(), node.storagePort(), node.jmxPort()))
        .containsExactly(25042, 25000, 25199);
    assertThat(node.home()).isEqualTo(home.resolve(".varve/cassandra"));
    List<String> args = inHome(home, up::serverArgs);
    assertThat(args).doesNotContain("--cassandra");
    assertThat(String.join(" ", args))
        .isEqualTo("--port 8080 --config " + home.resolve(".varve/server/up.yaml"));
  }

  /**
   * The file {@code up --secure} writes, read by the server's own parser: TLS with the generated
   * certificate, the token read from its file with full access, the role and the truststore.
   */
  @Test
  void secure_server_configuration_serves_tls_behind_the_token_file_and_logs_in_to_cassandra(
      @TempDir Path home) throws IOException {
    LocalCassandraSecurity security = LocalCassandraSecurity.forDevelopment(home);
    Files.createDirectories(security.directory());
    Files.writeString(security.directory().resolve("role-password"), "role-secret");
    Files.writeString(security.directory().resolve("store-password"), "store-secret");
    Files.writeString(security.apiTokenFile(), "api-secret\n");
    String yaml =
        inHome(
            home,
            () ->
                UpServerConfig.yaml(
                    CommandLine.populateCommand(new UpCommand(), "--secure").cassandra()));
    Path file = home.resolve(".varve/server/up.yaml");
    UpServerConfig.write(file, yaml);

    ServerSettings settings = ServerSettings.load(file);

    assertThat(yaml).doesNotContain("api-secret");
    assertThat(Files.getPosixFilePermissions(file))
        .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    assertThat(settings.tls())
        .contains(new ServerSettings.Tls(security.certificateChainPem(), security.privateKeyPem()));
    assertThat(settings.auth().tokens()).hasSize(1);
    TokenGrant token = settings.auth().tokens().get(0);
    assertThat(token.name()).isEqualTo(UpServerConfig.TOKEN_NAME);
    assertThat(token.secret()).isEqualTo("api-secret");
    assertThat(token.permissions()).containsExactlyInAnyOrder(Permission.values());
    assertThat(token.allows(Permission.ADMIN, "any_namespace")).isTrue();
    CassandraSettings cassandra = settings.cassandra();
    assertThat(cassandra.contactPoints()).containsExactly(new InetSocketAddress("127.0.0.1", 9042));
    assertThat(cassandra.username()).contains(LocalCassandraSecurity.ROLE);
    assertThat(cassandra.password()).contains("role-secret");
    assertThat(cassandra.tls()).isPresent();
    assertThat(cassandra.tls().get().truststore()).isEqualTo(security.truststore());
    assertThat(cassandra.tls().get().truststorePassword()).isEqualTo("store-secret");
    assertThat(cassandra.tls().get().hostnameValidation()).isTrue();
  }

  @Test
  void secure_with_a_config_file_of_the_users_is_refused_before_anything_starts() {
    assertThat(VarveCli.run("up", "--secure", "--config", "varve.yaml"))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(streams.err())
        .contains("--config cannot be combined with --secure")
        .contains("./varve local cassandra start --secure");
  }

  /** Runs {@code what} with {@code home} as the Varve home, as the commands find it. */
  private static <T> T inHome(Path home, Supplier<T> what) {
    System.setProperty(VarveHome.PROPERTY, home.toString());
    try {
      return what.get();
    } finally {
      System.clearProperty(VarveHome.PROPERTY);
    }
  }
}
