package io.varve.cli;

import io.varve.local.SettingChecks;
import io.varve.local.cassandra.LocalCassandraCluster;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * The local instance that {@code varve up} starts, named by what {@code status} and {@code down}
 * need to find it again: the server's API port, Cassandra's CQL port, OpenSearch's REST port, the
 * number of Cassandra nodes, the number of servers and whether it is {@code up --secure}.
 *
 * <p>{@code up} records it in {@code .varve/server/instance.properties}, beside the server's pid
 * file, before it starts anything; the file is written whole or not at all (a temporary file
 * renamed over it), so a reader never sees half of it.
 *
 * @param port the server's API port ({@code --port})
 * @param cqlPort the CQL port of the single node, or of every node of the cluster ({@code
 *     --cql-port})
 * @param opensearchPort OpenSearch's REST port ({@code --opensearch-port})
 * @param nodes the Cassandra nodes ({@code --nodes}): 1 for the single node
 * @param servers the Varve servers ({@code --servers}), on {@code port} and the ports after it; a
 *     record written before {@code --servers} existed has none, which means 1
 * @param secure whether it is {@code up --secure}: TLS and passwords
 */
record UpInstance(
    int port, int cqlPort, int opensearchPort, int nodes, int servers, boolean secure) {

  /** The most servers {@code up --servers} starts. */
  static final int MAX_SERVERS = 8;

  /** The name of the record in the server's directory. */
  static final String FILE_NAME = "instance.properties";

  private static final String PORT = "port";
  private static final String CQL_PORT = "cql-port";
  private static final String OPENSEARCH_PORT = "opensearch-port";
  private static final String NODES = "nodes";
  private static final String SERVERS = "servers";
  private static final String SECURE = "secure";

  /** Checks the ports and the number of nodes; messages name the key as the record spells it. */
  UpInstance {
    SettingChecks.port(PORT, port);
    SettingChecks.port(CQL_PORT, cqlPort);
    SettingChecks.port(OPENSEARCH_PORT, opensearchPort);
    if (nodes < 1 || nodes > LocalCassandraCluster.MAX_NODES) {
      throw new IllegalArgumentException(
          NODES + ": " + nodes + " (expected: 1.." + LocalCassandraCluster.MAX_NODES + ")");
    }
    if (servers < 1 || servers > MAX_SERVERS) {
      throw new IllegalArgumentException(
          SERVERS + ": " + servers + " (expected: 1.." + MAX_SERVERS + ")");
    }
    if (port + servers - 1 > 65535) {
      throw new IllegalArgumentException(
          SERVERS
              + ": "
              + servers
              + " from "
              + PORT
              + " "
              + port
              + " (expected: the last server's port, "
              + (port + servers - 1)
              + ", at most 65535)");
    }
  }

  /** The API port of server {@code k}, 1 to {@link #servers()}: {@code port + k - 1}. */
  int port(int k) {
    return port + k - 1;
  }

  /**
   * {@code up}'s defaults: API 8080, CQL 9042, OpenSearch 9200, one server, with these nodes and
   * security.
   */
  static UpInstance defaults(int nodes, boolean secure) {
    return defaults(nodes, 1, secure);
  }

  /** {@code up}'s default ports with these nodes, servers and security. */
  static UpInstance defaults(int nodes, int servers, boolean secure) {
    return new UpInstance(
        Instances.DEFAULT_PORT,
        Instances.DEFAULT_CQL_PORT,
        Instances.DEFAULT_OPENSEARCH_PORT,
        nodes,
        servers,
        secure);
  }

  /**
   * The instance recorded in {@code file}; empty if there is none.
   *
   * @throws IllegalStateException if the file does not hold a valid record: the message names the
   *     file, the key, the value and what was expected
   * @throws UncheckedIOException if the file exists but cannot be read
   */
  static Optional<UpInstance> read(Path file) {
    Properties record = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      record.load(reader);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + file, e);
    }
    try {
      return Optional.of(
          new UpInstance(
              number(record, PORT),
              number(record, CQL_PORT),
              number(record, OPENSEARCH_PORT),
              number(record, NODES),
              record.containsKey(SERVERS) ? number(record, SERVERS) : 1,
              flag(record, SECURE)));
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          file
              + ": "
              + e.getMessage()
              + ". Fix it, or delete it (./varve status and ./varve down then use the default"
              + " ports, and the next ./varve up writes it again).",
          e);
    }
  }

  /** Writes this record to {@code file}, replacing it whole: a temporary file renamed over it. */
  void write(Path file) throws IOException {
    Path directory = file.toAbsolutePath().getParent();
    Files.createDirectories(directory);
    Path temporary = Files.createTempFile(directory, FILE_NAME, ".tmp");
    try {
      Files.writeString(temporary, text());
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** How messages name the ports: {@code API port 8080, CQL port 9042, OpenSearch port 9200}. */
  String ports() {
    return "API port " + port + ", CQL port " + cqlPort + ", OpenSearch port " + opensearchPort;
  }

  /** Whether {@code other} names the same ports and the same security (nodes may differ). */
  boolean sameAddresses(UpInstance other) {
    return port == other.port
        && cqlPort == other.cqlPort
        && opensearchPort == other.opensearchPort
        && secure == other.secure;
  }

  private String text() {
    return "# The instance that ./varve up started in this Varve home, rewritten by each up.\n"
        + "# ./varve status and ./varve down act on it; an option given to them overrides it.\n"
        + (PORT + "=" + port + "\n")
        + (CQL_PORT + "=" + cqlPort + "\n")
        + (OPENSEARCH_PORT + "=" + opensearchPort + "\n")
        + (NODES + "=" + nodes + "\n")
        + (SERVERS + "=" + servers + "\n")
        + (SECURE + "=" + secure + "\n");
  }

  private static int number(Properties record, String key) {
    String value = required(record, key, "a number");
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": " + value + " (expected: a number)");
    }
  }

  private static boolean flag(Properties record, String key) {
    String value = required(record, key, "true or false");
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(key + ": " + value + " (expected: true or false)");
    };
  }

  private static String required(Properties record, String key, String expected) {
    String value = record.getProperty(key);
    if (value == null) {
      throw new IllegalArgumentException(key + ": missing (expected: " + expected + ")");
    }
    return value.trim();
  }
}
