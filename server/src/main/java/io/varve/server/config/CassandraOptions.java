package io.varve.server.config;

import io.varve.cassandra.session.CassandraCluster;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.namespace.Names;
import io.varve.options.EffectiveConfig;
import io.varve.options.Option;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.Section;
import io.varve.options.Types;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The options of the {@code cassandra} section, and how they make {@link CassandraSettings}. */
public final class CassandraOptions {

  private static final CassandraSettings D = CassandraSettings.local(9042);
  private static final Options.Builder OPTIONS = Options.builder();

  public static final Section CASSANDRA =
      OPTIONS.section("cassandra", "The Cassandra or ScyllaDB cluster.");
  public static final Option<List<String>> CONTACT_POINTS =
      OPTIONS
          .option("cassandra.contactPoints", Types.strings("`host:port`"))
          .defaultValue(List.of("127.0.0.1:9042"))
          .doc(
              "Nodes the driver contacts first, as `host:port` (port 9042 when omitted); it discovers the rest of"
                  + " the cluster.");
  public static final Option<String> LOCAL_DATACENTER =
      OPTIONS
          .option("cassandra.localDatacenter", Types.string())
          .defaultValue(D.localDatacenter())
          .doc(
              "The data center whose nodes serve requests; `LOCAL_ONE` and `LOCAL_QUORUM` count replicas in it. It"
                  + " must be the name Cassandra reports (`nodetool status`).");
  public static final Option<String> USERNAME =
      OPTIONS
          .option("cassandra.username", Types.string())
          .example("varve")
          .doc(
              "User for password authentication. When absent, the server connects without credentials.");
  public static final Option<String> PASSWORD =
      OPTIONS
          .option("cassandra.password", Types.string())
          .secret()
          .example("change-me")
          .doc("That user's password. Ignored without `username`.");

  public static final Section TLS =
      OPTIONS.optionalSection("cassandra.tls", "TLS to the cluster, on when `truststore` is set.");
  public static final Option<Path> TRUSTSTORE =
      OPTIONS
          .option("cassandra.tls.truststore", Types.path())
          .example("/etc/varve/cassandra/truststore.p12")
          .doc(
              "JKS or PKCS12 truststore holding the CA that signed the nodes' certificates. Setting it enables TLS.");
  public static final Option<String> TRUSTSTORE_PASSWORD =
      OPTIONS
          .option("cassandra.tls.truststorePassword", Types.string())
          .defaultValue("")
          .secret()
          .example("change-me")
          .doc("The truststore's password.");
  public static final Option<Path> KEYSTORE =
      OPTIONS
          .option("cassandra.tls.keystore", Types.path())
          .example("/etc/varve/cassandra/keystore.p12")
          .doc(
              "Client keystore (JKS or PKCS12), for clusters that require client certificates (mutual TLS).");
  public static final Option<String> KEYSTORE_PASSWORD =
      OPTIONS
          .option("cassandra.tls.keystorePassword", Types.string())
          .secret()
          .example("change-me")
          .doc("The keystore's password.");
  public static final Option<Boolean> HOSTNAME_VALIDATION =
      OPTIONS
          .option("cassandra.tls.hostnameValidation", Types.bool())
          .defaultValue(true)
          .doc("Whether each node's certificate must match the node's host name or address.");

  public static final Option<String> COMPRESSION =
      OPTIONS
          .option("cassandra.compression", Types.oneOf("none", "lz4"))
          .defaultValue(D.compression())
          .doc("Compression of the native protocol.");
  public static final Option<Duration> REQUEST_TIMEOUT =
      OPTIONS
          .option("cassandra.requestTimeout", Types.duration())
          .defaultValue(D.requestTimeout())
          .doc(
              "Timeout of one read or write request to Cassandra. A write that times out is reported per event as"
                  + " `UNAVAILABLE` (safe to retry).");
  public static final Option<Duration> SCHEMA_TIMEOUT =
      OPTIONS
          .option("cassandra.schemaTimeout", Types.duration())
          .defaultValue(D.schemaTimeout())
          .doc(
              "Timeout of one schema change: creating a keyspace or a slice table, dropping a table.");
  public static final Option<String> METADATA_KEYSPACE =
      OPTIONS
          .option("cassandra.metadataKeyspace", Types.matching(Names.IDENTIFIER, Names.EXPECTED))
          .defaultValue(D.metadataKeyspace())
          .doc(
              "Keyspace of the control plane: namespaces, time slices, the page-token key. Created at start when"
                  + " missing; a new name starts from an empty control plane. No namespace may use it as its dataset.");
  public static final Option<Map<String, String>> REPLICATION =
      OPTIONS
          .option("cassandra.replication", Types.stringMap())
          .defaultValue(D.replication())
          .doc(
              "Replication of every keyspace Varve creates (the metadata keyspace and namespace datasets): `class`"
                  + " and either `replication_factor` (SimpleStrategy) or a replica count per data center"
                  + " (NetworkTopologyStrategy). Existing keyspaces are never altered.");
  public static final Option<Integer> MAX_IN_FLIGHT_WRITES =
      OPTIONS
          .option("cassandra.maxInFlightWrites", Types.integer(1, 65536))
          .defaultValue(D.maxInFlightWrites())
          .doc(
              "Write statements in flight at once per server. A write request becomes one unlogged batch per"
                  + " partition it touches (split at about 1 MiB, never inside an event); batches over the bound wait in"
                  + " a queue, without blocking a thread. The queue is bounded by admission control: only admitted write"
                  + " requests (`server.admission.writeBytes`) put batches in it.");
  public static final Option<Integer> MAX_IN_FLIGHT_WRITE_BYTES =
      OPTIONS
          .option("cassandra.maxInFlightWriteBytes", Types.bytes(1024 * 1024, Integer.MAX_VALUE))
          .defaultValue((int) D.maxInFlightWriteBytes())
          .doc(
              "Bytes of the write batches in flight at once per server (their row values, about); further batches"
                  + " wait in the same queue. The count alone let large batches add up to more than a small node takes"
                  + " in at once (a 1 GiB node ran out of heap under 1,024 batches of 1 MiB). Keep the number of servers"
                  + " times this well under what one node absorbs: Cassandra's native transport takes a tenth of its"
                  + " heap in requests at once by default. A batch larger than this goes out alone. Gauges:"
                  + " `varve_limit_{inuse,capacity}_{calls,bytes}{limit=\"cassandra_writes\"}`,"
                  + " `varve_limit_waiting_calls{limit=\"cassandra_writes\"}`.");
  public static final Option<Integer> COMPRESSION_THRESHOLD =
      OPTIONS
          .option("cassandra.compressionThreshold", Types.bytes(1, Integer.MAX_VALUE))
          .defaultValue(D.compressionThreshold())
          .doc(
              "Item values of at least this size are zstd-compressed before they are stored, and kept compressed"
                  + " when that saves at least an eighth. A value over 64 KiB whose first 64 KiB do not compress by an"
                  + " eighth is stored plain without compressing the rest: already compressed or encrypted data costs"
                  + " a compression of 64 KiB, not of all its bytes. Readers undo it; clients never see it.");

  public static final Option<List<OptionValues>> CLUSTERS =
      OPTIONS
          .option("cassandra.clusters", Types.mappings(ClusterOptions.ALL))
          .defaultValue(List.of())
          .doc(
              "Clusters other than this section's (the default cluster, which holds the control plane), each with"
                  + " a `name`, `contactPoints`, `localDatacenter`, credentials, `tls` and `replication`: a namespace"
                  + " whose `physicalStorage.cluster` names one lives on it ([several clusters](#several-clusters)).");

  public static final Options ALL = OPTIONS.build();

  private CassandraOptions() {}

  /**
   * The clusters of {@code cassandra.clusters}, each with the default cluster's timeouts,
   * compression and write bounds; refuses, naming the key, an entry without a name, contact points
   * or data center, a name given twice or reserved ({@code default}), and TLS keys without a
   * truststore.
   */
  static List<CassandraCluster> clusters(OptionValues v, CassandraSettings defaults) {
    List<CassandraCluster> clusters = new ArrayList<>();
    Map<String, String> keyByName = new HashMap<>();
    for (OptionValues c : v.get(CLUSTERS)) {
      String name =
          c.optional(ClusterOptions.NAME)
              .orElseThrow(
                  () ->
                      InvalidFieldException.of(
                          c.key(ClusterOptions.NAME),
                          "missing (expected: the name namespaces give in physicalStorage.cluster)"));
      if (name.equals(ClusterSessions.DEFAULT_NAME)) {
        throw new InvalidFieldException(
            c.key(ClusterOptions.NAME),
            name,
            "another name: '"
                + name
                + "' is how /health and the metrics name the cluster of cassandra.contactPoints");
      }
      String earlier = keyByName.putIfAbsent(name, c.key(ClusterOptions.NAME));
      if (earlier != null) {
        throw new InvalidFieldException(
            c.key(ClusterOptions.NAME), name, "a name not used by " + earlier);
      }
      List<String> given = c.optional(ClusterOptions.CONTACT_POINTS).orElse(List.of());
      if (given.isEmpty()) {
        throw InvalidFieldException.of(
            c.key(ClusterOptions.CONTACT_POINTS),
            "missing (expected: at least one node of cluster " + name + " as host:port)");
      }
      List<InetSocketAddress> points =
          given.stream()
              .map(p -> ServerSettings.contactPoint(c.key(ClusterOptions.CONTACT_POINTS), p))
              .toList();
      String datacenter =
          c.optional(ClusterOptions.LOCAL_DATACENTER)
              .orElseThrow(
                  () ->
                      InvalidFieldException.of(
                          c.key(ClusterOptions.LOCAL_DATACENTER),
                          "missing (expected: the data center of cluster "
                              + name
                              + " whose nodes serve requests)"));
      if (!c.isSet(ClusterOptions.TRUSTSTORE)
          && (c.isSet(ClusterOptions.KEYSTORE)
              || c.isSet(ClusterOptions.KEYSTORE_PASSWORD)
              || c.isSet(ClusterOptions.TRUSTSTORE_PASSWORD)
              || c.isSet(ClusterOptions.HOSTNAME_VALIDATION))) {
        throw InvalidFieldException.of(
            c.key(ClusterOptions.TRUSTSTORE),
            "missing (expected: a truststore; TLS to the cluster is enabled by setting it)");
      }
      clusters.add(
          new CassandraCluster(
              name,
              new CassandraSettings(
                  points,
                  datacenter,
                  c.optional(ClusterOptions.USERNAME),
                  c.optional(ClusterOptions.PASSWORD),
                  c.optional(ClusterOptions.TRUSTSTORE)
                      .map(
                          t ->
                              new CassandraSettings.Tls(
                                  t,
                                  c.optional(ClusterOptions.TRUSTSTORE_PASSWORD).orElse(""),
                                  c.optional(ClusterOptions.KEYSTORE),
                                  c.optional(ClusterOptions.KEYSTORE_PASSWORD),
                                  c.optional(ClusterOptions.HOSTNAME_VALIDATION).orElse(true))),
                  defaults.compression(),
                  defaults.requestTimeout(),
                  defaults.schemaTimeout(),
                  defaults.metadataKeyspace(),
                  c.optional(ClusterOptions.REPLICATION).orElse(defaults.replication()),
                  defaults.maxInFlightWrites(),
                  defaults.maxInFlightWriteBytes(),
                  defaults.compressionThreshold())));
    }
    return List.copyOf(clusters);
  }

  static CassandraSettings settings(OptionValues v) {
    List<InetSocketAddress> points =
        v.get(CONTACT_POINTS).stream()
            .map(p -> ServerSettings.contactPoint(v.key(CONTACT_POINTS), p))
            .toList();
    if (!v.isSet(TRUSTSTORE)
        && (v.isSet(KEYSTORE)
            || v.isSet(KEYSTORE_PASSWORD)
            || v.isSet(TRUSTSTORE_PASSWORD)
            || v.isSet(HOSTNAME_VALIDATION))) {
      throw InvalidFieldException.of(
          v.key(TRUSTSTORE),
          "missing (expected: a truststore; TLS to Cassandra is" + " enabled by setting it)");
    }
    return new CassandraSettings(
        points,
        v.get(LOCAL_DATACENTER),
        v.optional(USERNAME),
        v.optional(PASSWORD),
        v.optional(TRUSTSTORE)
            .map(
                t ->
                    new CassandraSettings.Tls(
                        t,
                        v.get(TRUSTSTORE_PASSWORD),
                        v.optional(KEYSTORE),
                        v.optional(KEYSTORE_PASSWORD),
                        v.get(HOSTNAME_VALIDATION))),
        v.get(COMPRESSION),
        v.get(REQUEST_TIMEOUT),
        v.get(SCHEMA_TIMEOUT),
        v.get(METADATA_KEYSPACE),
        v.get(REPLICATION),
        v.get(MAX_IN_FLIGHT_WRITES),
        v.get(MAX_IN_FLIGHT_WRITE_BYTES),
        v.get(COMPRESSION_THRESHOLD));
  }

  static void effective(CassandraSettings c, EffectiveConfig config) {
    config
        .put(
            CONTACT_POINTS,
            c.contactPoints().stream().map(a -> a.getHostString() + ":" + a.getPort()).toList())
        .put(LOCAL_DATACENTER, c.localDatacenter())
        .put(USERNAME, c.username())
        .put(PASSWORD, c.password())
        .put(TRUSTSTORE, c.tls().map(CassandraSettings.Tls::truststore))
        .put(TRUSTSTORE_PASSWORD, c.tls().map(CassandraSettings.Tls::truststorePassword))
        .put(KEYSTORE, c.tls().flatMap(CassandraSettings.Tls::keystore))
        .put(KEYSTORE_PASSWORD, c.tls().flatMap(CassandraSettings.Tls::keystorePassword))
        .put(HOSTNAME_VALIDATION, c.tls().map(CassandraSettings.Tls::hostnameValidation))
        .put(COMPRESSION, c.compression())
        .put(REQUEST_TIMEOUT, c.requestTimeout())
        .put(SCHEMA_TIMEOUT, c.schemaTimeout())
        .put(METADATA_KEYSPACE, c.metadataKeyspace())
        .put(REPLICATION, c.replication())
        .put(MAX_IN_FLIGHT_WRITES, c.maxInFlightWrites())
        .put(MAX_IN_FLIGHT_WRITE_BYTES, (int) c.maxInFlightWriteBytes())
        .put(COMPRESSION_THRESHOLD, c.compressionThreshold());
  }
}
