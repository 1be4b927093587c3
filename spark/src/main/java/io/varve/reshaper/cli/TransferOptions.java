package io.varve.reshaper.cli;

import io.varve.reshaper.config.ConfigException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/**
 * The options {@code export} and {@code import} share: the namespace, and the data source's other
 * options ({@code -o key=value}, or a properties file for those that hold secrets), with the local
 * Cassandra of {@code varve up} when no {@code host} is given.
 */
final class TransferOptions {

  @Option(names = "--namespace", description = "the namespace (required)")
  String namespace;

  @Option(
      names = {"-o", "--option"},
      paramLabel = "KEY=VALUE",
      description =
          "an option of the varve-timeseries data source (docs/spark-data-sources.md), e.g."
              + " host=10.0.1.11 or credentials.username=etl; repeatable")
  List<String> options = List.of();

  @Option(
      names = "--options-file",
      paramLabel = "FILE",
      description = "a properties file of data source options, e.g. for credentials.password")
  Path optionsFile;

  @Option(names = "--format", description = "the files' format: parquet (the only one)")
  String format = "parquet";

  /**
   * The data source's options: the file's, then {@code -o}'s, then {@code --namespace}; a key given
   * twice is refused, as is a format other than Parquet.
   */
  Map<String, String> dataSourceOptions(Map<String, String> fromCommand) {
    if (!format.equalsIgnoreCase("parquet")) {
      throw new ConfigException("--format", format, "parquet");
    }
    if (namespace == null || namespace.isBlank()) {
      throw new ConfigException("--namespace", "missing", "the name of an existing namespace");
    }
    Map<String, String> all = new LinkedHashMap<>();
    if (optionsFile != null) {
      Properties file = new Properties();
      try (Reader r = Files.newBufferedReader(optionsFile)) {
        file.load(r);
      } catch (IOException e) {
        throw new ConfigException("--options-file", optionsFile, "a readable properties file");
      }
      file.stringPropertyNames().forEach(k -> put(all, k, file.getProperty(k), "--options-file"));
    }
    for (String o : options) {
      int eq = o.indexOf('=');
      if (eq <= 0) {
        throw new ConfigException("--option", o, "KEY=VALUE");
      }
      put(all, o.substring(0, eq).trim(), o.substring(eq + 1).trim(), "--option");
    }
    put(all, "namespace", namespace, "--namespace");
    fromCommand.forEach((k, v) -> put(all, k, v, "--" + k));
    if (all.keySet().stream().noneMatch(k -> k.equalsIgnoreCase("host"))) {
      all.put("host", "127.0.0.1"); // the local Cassandra of varve up, on its default port
    }
    return all;
  }

  private static void put(Map<String, String> all, String key, String value, String where) {
    for (String k : all.keySet()) {
      if (k.equalsIgnoreCase(key)) {
        throw new ConfigException(
            where, key + "=" + value, "each option given once (" + key + " is given twice)");
      }
    }
    all.put(key, value);
  }
}
