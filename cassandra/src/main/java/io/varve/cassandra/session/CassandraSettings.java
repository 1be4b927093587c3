package io.varve.cassandra.session;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How Varve reaches its Cassandra or ScyllaDB cluster.
 *
 * @param contactPoints initial nodes, {@code host:port}
 * @param localDatacenter the data center whose nodes serve requests ({@code datacenter1} for the
 *     local node)
 * @param username authentication user, when the cluster requires authentication
 * @param password authentication password
 * @param tls TLS to the cluster, when enabled
 * @param compression protocol compression: {@code none} or {@code lz4}
 * @param requestTimeout timeout of one data request
 * @param schemaTimeout timeout of one schema change (CREATE/DROP)
 * @param metadataKeyspace the keyspace of the control plane's tables
 * @param replication replication options for keyspaces Varve creates, e.g. {@code {class:
 *     SimpleStrategy, replication_factor: 1}} or {@code {class: NetworkTopologyStrategy, dc1: 3}}
 * @param maxInFlightWrites batches in flight at once per server
 * @param maxInFlightWriteBytes bytes of the batches in flight at once per server, about
 * @param compressionThreshold item values at least this long are stored zstd-compressed
 */
public record CassandraSettings(
    List<InetSocketAddress> contactPoints,
    String localDatacenter,
    Optional<String> username,
    Optional<String> password,
    Optional<Tls> tls,
    String compression,
    Duration requestTimeout,
    Duration schemaTimeout,
    String metadataKeyspace,
    Map<String, String> replication,
    int maxInFlightWrites,
    long maxInFlightWriteBytes,
    int compressionThreshold) {

  /**
   * TLS to the cluster.
   *
   * @param truststore JKS or PKCS12 truststore holding the CA of the nodes' certificates
   * @param truststorePassword its password
   * @param keystore optional client keystore (mutual TLS)
   * @param keystorePassword its password
   * @param hostnameValidation whether node certificates must match their host names
   */
  public record Tls(
      Path truststore,
      String truststorePassword,
      Optional<Path> keystore,
      Optional<String> keystorePassword,
      boolean hostnameValidation) {}

  /**
   * 32 MiB: well under what a small node (a 1 GiB heap, whose native transport takes a tenth of its
   * heap in requests at once) absorbs, and still dozens of full batches in flight.
   */
  public static final long DEFAULT_MAX_IN_FLIGHT_WRITE_BYTES = 32L * 1024 * 1024;

  /** Settings for a node on this machine at {@code 127.0.0.1:port}, no authentication. */
  public static CassandraSettings local(int port) {
    return new CassandraSettings(
        List.of(new InetSocketAddress("127.0.0.1", port)),
        "datacenter1",
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        "none",
        Duration.ofSeconds(5),
        Duration.ofSeconds(30),
        "varve",
        Map.of("class", "SimpleStrategy", "replication_factor", "1"),
        1024,
        DEFAULT_MAX_IN_FLIGHT_WRITE_BYTES,
        io.varve.format.ValueCodec.DEFAULT_THRESHOLD);
  }

  public CassandraSettings withContactPoints(List<InetSocketAddress> points) {
    return new CassandraSettings(
        points,
        localDatacenter,
        username,
        password,
        tls,
        compression,
        requestTimeout,
        schemaTimeout,
        metadataKeyspace,
        replication,
        maxInFlightWrites,
        maxInFlightWriteBytes,
        compressionThreshold);
  }

  public CassandraSettings withRequestTimeout(Duration timeout) {
    return new CassandraSettings(
        contactPoints,
        localDatacenter,
        username,
        password,
        tls,
        compression,
        timeout,
        schemaTimeout,
        metadataKeyspace,
        replication,
        maxInFlightWrites,
        maxInFlightWriteBytes,
        compressionThreshold);
  }

  public CassandraSettings withMetadataKeyspace(String keyspace) {
    return new CassandraSettings(
        contactPoints,
        localDatacenter,
        username,
        password,
        tls,
        compression,
        requestTimeout,
        schemaTimeout,
        keyspace,
        replication,
        maxInFlightWrites,
        maxInFlightWriteBytes,
        compressionThreshold);
  }
}
