package io.varve.cli;

import picocli.CommandLine.Option;

/** The ports naming the local instances that {@code up}, {@code down} and {@code status} act on. */
final class InstanceOptions {

  @Option(names = "--port", defaultValue = "8080", description = "Port of the Varve server (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--cql-port", defaultValue = "9042",
      description = "CQL port of the local Cassandra (default: ${DEFAULT-VALUE}).")
  int cqlPort;
}
