package io.varve.local.cassandra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code conf/cassandra.yaml} and {@code conf/logback.xml} for one node; the {@code
 * cassandra-all} jar ships neither. Cassandra refuses unknown keys, so every key here must exist in
 * Cassandra 5.0 under its 5.0 name.
 */
final class CassandraConfigWriter {

  /**
   * The logging of Cassandra's tools ({@code nodetool}) run on a node's jars: warnings to stderr,
   * as the file of the same name in a Cassandra tarball; without it they print every debug line.
   */
  static final String TOOLS_LOGBACK = "logback-tools.xml";

  private static final String TOOLS_LOGBACK_XML =
      String.join(
          "\n",
          "<!-- Written by Varve's LocalCassandra at each start; edits are overwritten. -->",
          "<configuration scan=\"false\">",
          "  <appender name=\"STDERR\" class=\"ch.qos.logback.core.ConsoleAppender\">",
          "    <target>System.err</target>",
          "    <encoder><pattern>%-5level %msg%n</pattern></encoder>",
          "  </appender>",
          "  <root level=\"WARN\"><appender-ref ref=\"STDERR\"/></root>",
          "</configuration>",
          "");

  private CassandraConfigWriter() {}

  static void write(LocalCassandraSettings settings) throws IOException {
    write(settings, true);
  }

  /**
   * @param bootstrap false for a node that joins a cluster built empty at this start ({@link
   *     LocalCassandraCluster#start}): nothing to stream, so it takes its tokens and joins at once
   */
  static void write(LocalCassandraSettings settings, boolean bootstrap) throws IOException {
    Files.createDirectories(settings.confDirectory());
    Files.writeString(
        settings.confDirectory().resolve("cassandra.yaml"), cassandraYaml(settings, bootstrap));
    Files.writeString(settings.confDirectory().resolve("logback.xml"), logbackXml(settings));
    Files.writeString(settings.confDirectory().resolve(TOOLS_LOGBACK), TOOLS_LOGBACK_XML);
  }

  static String cassandraYaml(LocalCassandraSettings settings) {
    return cassandraYaml(settings, true);
  }

  static String cassandraYaml(LocalCassandraSettings settings, boolean bootstrap) {
    Path home = settings.home();
    String address = settings.address();
    return String.join(
        "\n",
        "# Written by Varve's LocalCassandra at each start; edits are overwritten.",
        "cluster_name: " + quoted(LocalCassandraSettings.CLUSTER_NAME),
        "num_tokens: 16",
        "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
        "endpoint_snitch: SimpleSnitch",
        "seed_provider:",
        "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
        "    parameters:",
        "      - seeds: " + quoted(settings.seed() + ":" + settings.storagePort()),
        "listen_address: " + address,
        "rpc_address: " + address,
        "storage_port: " + settings.storagePort(),
        "native_transport_port: " + settings.cqlPort(),
        "start_native_transport: true",
        "data_file_directories:",
        "  - " + quoted(home.resolve("data")),
        "commitlog_directory: " + quoted(home.resolve("commitlog")),
        "saved_caches_directory: " + quoted(home.resolve("saved_caches")),
        "hints_directory: " + quoted(home.resolve("hints")),
        commitlogSync(settings.commitlogSync()),
        "auto_snapshot: false",
        bootstrap ? "# a joining node bootstraps (the default)" : "auto_bootstrap: false",
        security(settings),
        "authorizer: AllowAllAuthorizer",
        "");
  }

  /**
   * Plain CQL without credentials, or: TLS only on the CQL port (a plaintext client is refused) and
   * password authentication. Node-to-node traffic stays on loopback, unencrypted.
   */
  private static String security(LocalCassandraSettings settings) {
    if (settings.security().isEmpty()) {
      return "authenticator: AllowAllAuthenticator";
    }
    LocalCassandraSecurity security = settings.security().get();
    return String.join(
        "\n",
        "authenticator: PasswordAuthenticator",
        "role_manager: CassandraRoleManager",
        "client_encryption_options:",
        "  enabled: true",
        "  optional: false",
        "  keystore: " + quoted(security.keystore()),
        "  keystore_password: " + quoted(security.storePassword()),
        "  store_type: " + security.storeType(),
        "  require_client_auth: false");
  }

  static String logbackXml(LocalCassandraSettings settings) {
    String log = xmlEscaped(settings.systemLog().toString());
    return String.join(
        "\n",
        "<!-- Written by Varve's LocalCassandra at each start; edits are overwritten. -->",
        "<configuration scan=\"false\">",
        "  <appender name=\"SYSTEMLOG\" class=\"ch.qos.logback.core.rolling.RollingFileAppender\">",
        "    <file>" + log + "</file>",
        "    <rollingPolicy class=\"ch.qos.logback.core.rolling.FixedWindowRollingPolicy\">",
        "      <fileNamePattern>" + log + ".%i.zip</fileNamePattern>",
        "      <minIndex>1</minIndex>",
        "      <maxIndex>5</maxIndex>",
        "    </rollingPolicy>",
        "    <triggeringPolicy class=\"ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy\">",
        "      <maxFileSize>50MB</maxFileSize>",
        "    </triggeringPolicy>",
        "    <encoder>",
        "      <pattern>%-5level [%thread] %date{ISO8601} %logger{0} - %msg%n</pattern>",
        "    </encoder>",
        "  </appender>",
        "  <root level=\"INFO\">",
        "    <appender-ref ref=\"SYSTEMLOG\"/>",
        "  </root>",
        "</configuration>",
        "");
  }

  private static String commitlogSync(CommitlogSync sync) {
    if (sync.isGroup()) {
      return "commitlog_sync: group\ncommitlog_sync_group_window: "
          + sync.groupWindow().toMillis()
          + "ms";
    }
    return "commitlog_sync: batch";
  }

  /** YAML single-quoted scalar: safe for any path, with {@code '} doubled. */
  private static String quoted(Object value) {
    return "'" + value.toString().replace("'", "''") + "'";
  }

  private static String xmlEscaped(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
