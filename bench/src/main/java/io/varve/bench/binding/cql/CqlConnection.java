package io.varve.bench.binding.cql;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.querybuilder.SchemaBuilder;
import com.datastax.oss.driver.api.querybuilder.schema.CreateTable;
import io.varve.bench.binding.BindingOptions;
import io.varve.bench.binding.SharedConnection;
import io.varve.options.OptionValues;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import site.ycsb.DBException;

/**
 * The session all client threads of a run share, opened by the first thread's {@code init} and
 * closed by the last one's {@code cleanup}, from the binding's properties ({@link CqlOptions}).
 * Creates the keyspace and table when {@code cassandra.create=true}.
 */
final class CqlConnection implements AutoCloseable {
  private static final SharedConnection<CqlConnection> SHARED = new SharedConnection<>();

  private final CqlSession session;
  private final String keyspace;
  private final String table;
  private final ConsistencyLevel readConsistency;
  private final ConsistencyLevel writeConsistency;

  private CqlConnection(
      CqlSession session,
      String keyspace,
      String table,
      ConsistencyLevel read,
      ConsistencyLevel write) {
    this.session = session;
    this.keyspace = keyspace;
    this.table = table;
    this.readConsistency = read;
    this.writeConsistency = write;
  }

  /** The shared connection, opened on first use. */
  static CqlConnection acquire(Properties properties) throws DBException {
    return SHARED.acquire(() -> open(BindingOptions.read(CqlOptions.ALL, properties)));
  }

  /** Releases one use; the last one closes the session. */
  void release() {
    SHARED.release();
  }

  @Override
  public void close() {
    session.close();
  }

  CqlSession session() {
    return session;
  }

  String keyspace() {
    return keyspace;
  }

  String table() {
    return table;
  }

  ConsistencyLevel readConsistency() {
    return readConsistency;
  }

  ConsistencyLevel writeConsistency() {
    return writeConsistency;
  }

  private static CqlConnection open(OptionValues p) throws DBException {
    String keyspace = p.get(CqlOptions.KEYSPACE);
    String table = p.get(CqlOptions.TABLE);
    ConsistencyLevel read = DefaultConsistencyLevel.valueOf(p.get(CqlOptions.READ_CONSISTENCY));
    ConsistencyLevel write = DefaultConsistencyLevel.valueOf(p.get(CqlOptions.WRITE_CONSISTENCY));
    CqlSession session = session(p, p.get(CqlOptions.MAX_CONNECTIONS));
    try {
      if (p.get(CqlOptions.CREATE)) {
        create(session, p, keyspace, table);
      }
      if (session.getMetadata().getKeyspace(keyspace).flatMap(k -> k.getTable(table)).isEmpty()) {
        throw new DBException(
            "table "
                + keyspace
                + "."
                + table
                + " does not exist: create it (docs/bench.md) or set "
                + "cassandra.create=true");
      }
    } catch (DBException | RuntimeException e) {
      session.close();
      throw e;
    }
    return new CqlConnection(session, keyspace, table, read, write);
  }

  /**
   * A session to the nodes the properties name (hosts, port, data centre, credentials, TLS,
   * timeouts), with {@code connections} per node.
   */
  static CqlSession session(OptionValues p, int connections) throws DBException {
    int port = p.get(CqlOptions.PORT);
    List<InetSocketAddress> contactPoints = new ArrayList<>();
    for (String host : p.get(CqlOptions.HOSTS).split(",")) {
      if (!host.isBlank()) {
        contactPoints.add(InetSocketAddress.createUnresolved(host.trim(), port));
      }
    }
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(
                DefaultDriverOption.REQUEST_TIMEOUT,
                Duration.ofMillis(p.get(CqlOptions.READ_TIMEOUT)))
            .withDuration(
                DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT,
                Duration.ofMillis(p.get(CqlOptions.CONNECT_TIMEOUT)))
            .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, connections)
            .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, p.get(CqlOptions.MAX_REQUESTS))
            .withBoolean(DefaultDriverOption.REQUEST_WARN_IF_SET_KEYSPACE, false)
            .build();
    CqlSessionBuilder builder =
        CqlSession.builder()
            .withConfigLoader(config)
            .addContactPoints(contactPoints)
            .withLocalDatacenter(p.get(CqlOptions.LOCAL_DC));
    Optional<String> user = p.optional(CqlOptions.USERNAME);
    if (user.isPresent()) {
      builder.withAuthCredentials(user.get(), p.get(CqlOptions.PASSWORD));
    }
    if (p.get(CqlOptions.USE_SSL)) {
      try {
        builder.withSslContext(SSLContext.getDefault());
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new DBException(
            "cassandra.useSSL=true but no default TLS context is available: " + e.getMessage());
      }
    }
    try {
      return builder.build();
    } catch (DriverException | IllegalStateException e) {
      throw new DBException(
          "cannot connect to Cassandra at hosts="
              + p.get(CqlOptions.HOSTS)
              + " port="
              + port
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private static void create(CqlSession session, OptionValues p, String keyspace, String table)
      throws DBException {
    int replication = p.get(CqlOptions.REPLICATION_FACTOR);
    int fieldCount = p.get(CqlOptions.FIELD_COUNT);
    String prefix = p.get(CqlOptions.FIELD_NAME_PREFIX);
    session.execute(
        SchemaBuilder.createKeyspace(keyspace)
            .ifNotExists()
            .withSimpleStrategy(replication)
            .build()
            .setTimeout(Duration.ofSeconds(30)));
    CreateTable create =
        SchemaBuilder.createTable(keyspace, table)
            .ifNotExists()
            .withPartitionKey("y_id", DataTypes.TEXT);
    for (int i = 0; i < fieldCount; i++) {
      String column = prefix + i;
      if (!BindingOptions.isIdentifier(column)) {
        throw new DBException(
            "fieldnameprefix: "
                + prefix
                + " (expected: a prefix making column names, not "
                + column
                + ")");
      }
      create = create.withColumn(column, DataTypes.TEXT);
    }
    session.execute(create.build().setTimeout(Duration.ofSeconds(30)));
    session.checkSchemaAgreement();
    session.refreshSchema();
  }
}
