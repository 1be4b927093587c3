package io.varve.cli;

import picocli.CommandLine.Option;

/** The ports naming the local instances that {@code up}, {@code down} and {@code status} act on. */
final class InstanceOptions {

  @Option(
      names = "--port",
      defaultValue = "" + Instances.DEFAULT_PORT,
      description = "Port of the Varve server (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--cql-port",
      defaultValue = "9042",
      description = "CQL port of the local Cassandra (default: ${DEFAULT-VALUE}).")
  int cqlPort;

  @Option(
      names = "--opensearch-port",
      defaultValue = "9200",
      description =
          "REST port of the local OpenSearch (default: ${DEFAULT-VALUE}); its transport port is this"
              + " plus 100.")
  int opensearchPort;
}
