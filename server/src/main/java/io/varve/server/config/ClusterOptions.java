package io.varve.server.config;

import io.varve.options.Option;
import io.varve.options.Options;
import io.varve.options.Types;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The options of one entry of {@code cassandra.clusters}: a Cassandra or ScyllaDB cluster other
 * than the default one (the {@code cassandra} section's own keys), which namespaces name in {@code
 * physicalStorage.cluster}.
 */
public final class ClusterOptions {

  /** A cluster's name: what namespaces write in {@code physicalStorage.cluster}. */
  static final Pattern NAME_PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

  private static final Options.Builder OPTIONS = Options.builder();

  public static final Option<String> NAME =
      OPTIONS
          .option("name", Types.matching(NAME_PATTERN, NAME_PATTERN.pattern()))
          .example("analytics")
          .doc(
              "Required and unique, not `default` (the name `/health` and the metrics give the cluster of"
                  + " `cassandra.contactPoints`). The name namespaces give in `physicalStorage.cluster` to live on this cluster.");
  public static final Option<List<String>> CONTACT_POINTS =
      OPTIONS
          .option("contactPoints", Types.strings("`host:port`"))
          .example("[\"10.0.5.11:9042\", \"10.0.6.11:9042\"]")
          .doc("Required, not empty: nodes the driver contacts first, as `host:port`.");
  public static final Option<String> LOCAL_DATACENTER =
      OPTIONS
          .option("localDatacenter", Types.string())
          .example("eu-west-1")
          .doc("Required: the data center of this cluster whose nodes serve requests.");
  public static final Option<String> USERNAME =
      OPTIONS
          .option("username", Types.string())
          .example("varve")
          .doc("User for password authentication on this cluster; none when absent.");
  public static final Option<String> PASSWORD =
      OPTIONS
          .option("password", Types.string())
          .secret()
          .example("change-me")
          .doc("That user's password.");
  public static final Option<Path> TRUSTSTORE =
      OPTIONS
          .option("tls.truststore", Types.path())
          .example("/etc/varve/analytics/truststore.p12")
          .doc("TLS to this cluster, on when set: as `cassandra.tls.truststore`.");
  public static final Option<String> TRUSTSTORE_PASSWORD =
      OPTIONS
          .option("tls.truststorePassword", Types.string())
          .secret()
          .example("change-me")
          .doc("As `cassandra.tls.truststorePassword`.");
  public static final Option<Path> KEYSTORE =
      OPTIONS
          .option("tls.keystore", Types.path())
          .example("/etc/varve/analytics/keystore.p12")
          .doc("As `cassandra.tls.keystore`.");
  public static final Option<String> KEYSTORE_PASSWORD =
      OPTIONS
          .option("tls.keystorePassword", Types.string())
          .secret()
          .example("change-me")
          .doc("As `cassandra.tls.keystorePassword`.");
  public static final Option<Boolean> HOSTNAME_VALIDATION =
      OPTIONS
          .option("tls.hostnameValidation", Types.bool())
          .example("true")
          .doc("As `cassandra.tls.hostnameValidation`.");
  public static final Option<Map<String, String>> REPLICATION =
      OPTIONS
          .option("replication", Types.stringMap())
          .example("{class: NetworkTopologyStrategy, eu-west-1: 3}")
          .doc(
              "Replication of the keyspaces Varve creates on this cluster; the default cluster's"
                  + " `cassandra.replication` when absent.");

  public static final Options ALL = OPTIONS.build();

  private ClusterOptions() {}
}
