package io.varve.cli;

import picocli.CommandLine.Option;

/**
 * The ports naming the local instance that {@code up} starts and {@code down} and {@code status}
 * act on. Each is null unless given: {@code up} then takes its default, {@code status} and {@code
 * down} the port that the last {@code up} recorded ({@link UpInstance}), else the default.
 */
final class InstanceOptions {

  private static final String RECORDED =
      "; for status and down, the port the last up recorded, if any";

  @Option(
      names = "--port",
      paramLabel = "<port>",
      description =
          "Port of the Varve server (default: " + Instances.DEFAULT_PORT + RECORDED + ").")
  Integer port;

  @Option(
      names = "--cql-port",
      paramLabel = "<cqlPort>",
      description =
          "CQL port of the local Cassandra (default: "
              + Instances.DEFAULT_CQL_PORT
              + RECORDED
              + ").")
  Integer cqlPort;

  @Option(
      names = "--opensearch-port",
      paramLabel = "<opensearchPort>",
      description =
          "REST port of the local OpenSearch (default: "
              + Instances.DEFAULT_OPENSEARCH_PORT
              + RECORDED
              + "); its transport port is this plus 100.")
  Integer opensearchPort;

  /**
   * The instance these options name over {@code base}: each port given replaces {@code base}'s, the
   * others are {@code base}'s; the nodes, servers and security are {@code base}'s.
   */
  UpInstance over(UpInstance base) {
    return new UpInstance(
        port != null ? port : base.port(),
        cqlPort != null ? cqlPort : base.cqlPort(),
        opensearchPort != null ? opensearchPort : base.opensearchPort(),
        base.nodes(),
        base.servers(),
        base.secure());
  }
}
