package io.varve.local.opensearch;

import java.io.IOException;
import java.nio.file.Files;

/**
 * Writes {@code config/opensearch.yml} and {@code config/log4j2.properties} for one node; the
 * OpenSearch jars ship neither. OpenSearch refuses unknown keys, so every key here must exist in
 * OpenSearch 3.
 */
final class OpenSearchConfigWriter {

  private OpenSearchConfigWriter() {}

  static void write(LocalOpenSearchSettings settings) throws IOException {
    Files.createDirectories(settings.configDirectory());
    Files.writeString(
        settings.configDirectory().resolve("opensearch.yml"), openSearchYml(settings));
    Files.writeString(settings.configDirectory().resolve("log4j2.properties"), log4j2Properties());
  }

  static String openSearchYml(LocalOpenSearchSettings settings) {
    return String.join(
        "\n",
        "# Written by Varve's LocalOpenSearch at each start; edits are overwritten.",
        "cluster.name: " + quoted(LocalOpenSearchSettings.CLUSTER_NAME),
        "node.name: " + quoted(LocalOpenSearchSettings.CLUSTER_NAME),
        "discovery.type: single-node",
        "network.host: " + LocalOpenSearchSettings.ADDRESS,
        "http.port: " + settings.httpPort(),
        "transport.port: " + settings.transportPort(),
        "path.data: " + quoted(settings.dataDirectory()),
        "path.logs: " + quoted(settings.logDirectory()),
        // A developer's disk may be fuller than the 85/90 % watermarks; one node has nowhere
        // else to put shards, so they would stay unassigned.
        "cluster.routing.allocation.disk.threshold_enabled: false",
        "");
  }

  /**
   * OpenSearch sets {@code opensearch.logs.base_path} from {@code path.logs} before reading this.
   */
  static String log4j2Properties() {
    String log = "${sys:opensearch.logs.base_path}${sys:file.separator}opensearch";
    return String.join(
        "\n",
        "# Written by Varve's LocalOpenSearch at each start; edits are overwritten.",
        "status = error",
        "appender.rolling.type = RollingFile",
        "appender.rolling.name = rolling",
        "appender.rolling.fileName = " + log + ".log",
        "appender.rolling.filePattern = " + log + "-%i.log.gz",
        "appender.rolling.layout.type = PatternLayout",
        "appender.rolling.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] %marker%m%n",
        "appender.rolling.policies.type = Policies",
        "appender.rolling.policies.size.type = SizeBasedTriggeringPolicy",
        "appender.rolling.policies.size.size = 50MB",
        "appender.rolling.strategy.type = DefaultRolloverStrategy",
        "appender.rolling.strategy.max = 5",
        "rootLogger.level = info",
        "rootLogger.appenderRef.rolling.ref = rolling",
        "");
  }

  /** YAML single-quoted scalar: safe for any path, with {@code '} doubled. */
  private static String quoted(Object value) {
    return "'" + value.toString().replace("'", "''") + "'";
  }
}
