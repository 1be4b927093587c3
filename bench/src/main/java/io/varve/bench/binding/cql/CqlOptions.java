package io.varve.bench.binding.cql;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.varve.bench.binding.BindingOptions;
import io.varve.options.Option;
import io.varve.options.Options;
import io.varve.options.Types;
import java.util.Arrays;

/** The properties of the {@code cql} binding; names are those of YCSB's cassandra-cql binding. */
public final class CqlOptions {

  private static final Options.Builder OPTIONS = Options.builder();
  private static final String[] LEVELS =
      Arrays.stream(DefaultConsistencyLevel.values()).map(Enum::name).toArray(String[]::new);

  public static final Option<String> HOSTS =
      OPTIONS
          .option("hosts", Types.string())
          .defaultValue("127.0.0.1")
          .doc("Contact points, comma-separated.");
  public static final Option<Integer> PORT =
      OPTIONS
          .option("port", Types.integer(1, 65535))
          .defaultValue(9042)
          .doc("CQL port of every contact point.");
  public static final Option<String> LOCAL_DC =
      OPTIONS
          .option("cassandra.localdc", Types.string())
          .defaultValue("datacenter1")
          .doc("The local datacenter (the driver routes to it).");
  public static final Option<String> KEYSPACE =
      OPTIONS
          .option("cassandra.keyspace", BindingOptions.NAME)
          .defaultValue("ycsb")
          .doc("Keyspace.");
  public static final Option<String> TABLE =
      OPTIONS
          .option("table", BindingOptions.NAME)
          .defaultValue("usertable")
          .doc("Table (YCSB's property).");
  public static final Option<String> READ_CONSISTENCY =
      OPTIONS
          .option("cassandra.readconsistencylevel", Types.oneOfIgnoringCase(LEVELS))
          .defaultValue("LOCAL_QUORUM")
          .doc("Read consistency (YCSB's binding defaults to `ONE`).");
  public static final Option<String> WRITE_CONSISTENCY =
      OPTIONS
          .option("cassandra.writeconsistencylevel", Types.oneOfIgnoringCase(LEVELS))
          .defaultValue("LOCAL_QUORUM")
          .doc("Write consistency (YCSB's binding defaults to `ONE`).");
  public static final Option<String> USERNAME =
      OPTIONS
          .option("cassandra.username", Types.string())
          .doc("User of password authentication; none by default.");
  public static final Option<String> PASSWORD =
      OPTIONS
          .option("cassandra.password", Types.string())
          .defaultValue("")
          .secret()
          .doc("That user's password.");
  public static final Option<Boolean> USE_SSL =
      OPTIONS
          .option("cassandra.useSSL", Types.bool())
          .defaultValue(false)
          .doc("TLS with the JVM's default trust store (`-Djavax.net.ssl.trustStore=...`).");
  public static final Option<Integer> MAX_CONNECTIONS =
      OPTIONS
          .option("cassandra.maxconnections", Types.integer(1, 1024))
          .defaultValue(1)
          .doc("Connections per node.");
  public static final Option<Integer> MAX_REQUESTS =
      OPTIONS
          .option("cassandra.maxrequestsperconnection", Types.integer(1, 32768))
          .defaultValue(1024)
          .doc("In-flight requests per connection.");
  public static final Option<Integer> CONNECT_TIMEOUT =
      OPTIONS
          .option("cassandra.connecttimeoutmillis", Types.integer(1, 3_600_000))
          .defaultValue(5_000)
          .doc("Connection timeout, in milliseconds.");
  public static final Option<Integer> READ_TIMEOUT =
      OPTIONS
          .option("cassandra.readtimeoutmillis", Types.integer(1, 3_600_000))
          .defaultValue(12_000)
          .doc("Request timeout, in milliseconds.");
  public static final Option<Boolean> CREATE =
      OPTIONS
          .option("cassandra.create", Types.bool())
          .defaultValue(false)
          .doc(
              "`true`: create the keyspace (SimpleStrategy) and the table, with `fieldcount` text columns named"
                  + " `fieldnameprefix` + n, unless they exist.");
  public static final Option<Integer> REPLICATION_FACTOR =
      OPTIONS
          .option("cassandra.replicationfactor", Types.integer(1, 100))
          .defaultValue(1)
          .doc("Replication factor of a keyspace that `cassandra.create` creates.");
  public static final Option<Integer> FIELD_COUNT =
      OPTIONS
          .option("fieldcount", Types.integer(1, 1000))
          .defaultValue(10)
          .doc("Columns of a table that `cassandra.create` creates (YCSB's workload property).");
  public static final Option<String> FIELD_NAME_PREFIX =
      OPTIONS
          .option("fieldnameprefix", Types.string())
          .defaultValue("field")
          .doc("Prefix of those columns' names (YCSB's workload property).");

  public static final Options ALL = OPTIONS.build();

  private CqlOptions() {}
}
