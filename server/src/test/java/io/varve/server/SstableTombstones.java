package io.varve.server;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Counts the tombstones a table holds on the test node, as Cassandra writes them to disk: flushes
 * the table over the node's local JMX port, then runs Cassandra's own {@code sstabledump} ({@code
 * org.apache.cassandra.tools.SSTableExport}, from the jars the build fetched) on each of its
 * SSTables. The node tells where its data and JMX port are ({@code system_views}); the test must
 * run on the node's machine.
 */
final class SstableTombstones {

  /** Per partition: partition deletions, range tombstones, expiring rows and cell tombstones. */
  record Counts(
      int partitionDeletions,
      int rangeTombstones,
      int expiringRows,
      List<Long> ttls,
      int cellTombstones) {}

  private static final List<String> MODULE_ACCESS =
      List.of(
          "--add-exports",
          "java.base/jdk.internal.misc=ALL-UNNAMED",
          "--add-exports",
          "java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-exports",
          "java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.lang=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.nio=ALL-UNNAMED",
          "--add-opens",
          "java.base/java.io=ALL-UNNAMED",
          "--add-opens",
          "java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens",
          "java.base/jdk.internal.ref=ALL-UNNAMED");

  private SstableTombstones() {}

  /** The counts of each partition of {@code keyspace.table}, by partition key. */
  static Map<String, Counts> of(CqlSession cql, String keyspace, String table) throws Exception {
    flush(cql, keyspace, table);
    String dataDirs =
        cql.execute("SELECT value FROM system_views.settings WHERE name = 'data_file_directories'")
            .one()
            .getString(0);
    Map<String, Counts> counts = new TreeMap<>();
    for (String dir : dataDirs.replaceAll("[\\[\\]\" ]", "").split(",")) {
      try (Stream<Path> tables = Files.list(Path.of(dir, keyspace))) {
        for (Path tableDir :
            tables.filter(p -> p.getFileName().toString().startsWith(table + "-")).toList()) {
          try (Stream<Path> files = Files.list(tableDir)) {
            for (Path data : files.filter(p -> p.toString().endsWith("-Data.db")).toList()) {
              dump(data, property(cql, "cassandra.config"))
                  .forEach(partition -> add(counts, partition));
            }
          }
        }
      }
    }
    return counts;
  }

  private static void flush(CqlSession cql, String keyspace, String table) throws Exception {
    String port = property(cql, "cassandra.jmx.local.port");
    JMXServiceURL url =
        new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi");
    try (JMXConnector jmx = JMXConnectorFactory.connect(url)) {
      jmx.getMBeanServerConnection()
          .invoke(
              new ObjectName("org.apache.cassandra.db:type=StorageService"),
              "forceKeyspaceFlush",
              new Object[] {keyspace, new String[] {table}},
              new String[] {String.class.getName(), String[].class.getName()});
    }
  }

  private static String property(CqlSession cql, String name) {
    return cql.execute(
            "SELECT value FROM system_views.system_properties WHERE name = '" + name + "'")
        .one()
        .getString(0);
  }

  /**
   * The tool reads the node's cassandra.yaml (a file: URI) as any offline tool of the distribution
   * does.
   */
  private static JsonNode dump(Path data, String config) throws IOException, InterruptedException {
    Path lib =
        Path.of(System.getProperty("user.dir"))
            .getParent()
            .resolve("local/cassandra-dist/target/lib");
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(MODULE_ACCESS);
    command.addAll(
        List.of(
            "-Dcassandra.config=" + config,
            "-cp",
            lib + "/*",
            "org.apache.cassandra.tools.SSTableExport",
            data.toString()));
    Path errors = Files.createTempFile("sstabledump", ".err");
    Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException(
          "sstabledump failed on " + data + ": " + Files.readString(errors));
    }
    Files.delete(errors);
    // the tool's log lines go to stdout before the JSON array
    return TestServer.JSON.readTree(out.substring(out.indexOf("\n[") + 1));
  }

  private static void add(Map<String, Counts> counts, JsonNode partition) {
    String key = partition.path("partition").path("key").get(0).asText();
    int partitionDeletions = partition.path("partition").has("deletion_info") ? 1 : 0;
    int ranges = 0;
    int expiring = 0;
    int cells = 0;
    List<Long> ttls = new ArrayList<>();
    for (JsonNode row : partition.path("rows")) {
      if (row.path("type").asText().startsWith("range_tombstone") && row.has("start")) {
        ranges++;
      }
      if (row.path("liveness_info").has("ttl")) {
        expiring++;
        ttls.add(row.path("liveness_info").path("ttl").asLong());
      }
      for (JsonNode cell : row.path("cells")) {
        cells += cell.has("deletion_info") ? 1 : 0;
      }
    }
    Counts old = counts.getOrDefault(key, new Counts(0, 0, 0, List.of(), 0));
    List<Long> allTtls = new ArrayList<>(old.ttls());
    allTtls.addAll(ttls);
    counts.put(
        key,
        new Counts(
            old.partitionDeletions() + partitionDeletions,
            old.rangeTombstones() + ranges,
            old.expiringRows() + expiring,
            allTtls,
            old.cellTombstones() + cells));
  }
}
