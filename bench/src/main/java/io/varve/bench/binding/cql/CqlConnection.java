package io.varve.bench.binding.cql;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.querybuilder.SchemaBuilder;
import com.datastax.oss.driver.api.querybuilder.schema.CreateTable;
import io.varve.bench.binding.BindingProperties;
import io.varve.bench.binding.SharedConnection;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import javax.net.ssl.SSLContext;
import site.ycsb.DBException;

/**
 * The session all client threads of a run share, opened by the first thread's {@code init} and
 * closed by the last one's {@code cleanup}. Creates the keyspace and table when
 * {@code cassandra.create=true}.
 */
final class CqlConnection implements AutoCloseable {
  private static final SharedConnection<CqlConnection> SHARED = new SharedConnection<>();

  private final CqlSession session;
  private final String keyspace;
  private final String table;
  private final ConsistencyLevel readConsistency;
  private final ConsistencyLevel writeConsistency;

  private CqlConnection(CqlSession session, String keyspace, String table, ConsistencyLevel read, ConsistencyLevel write) {
    this.session = session;
    this.keyspace = keyspace;
    this.table = table;
    this.readConsistency = read;
    this.writeConsistency = write;
  }

  /** The shared connection, opened on first use. */
  static CqlConnection acquire(Properties properties) throws DBException {
    return SHARED.acquire(() -> open(new BindingProperties(properties)));
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

  private static CqlConnection open(BindingProperties p) throws DBException {
    String keyspace = p.identifier("cassandra.keyspace", "ycsb");
    String table = p.identifier("table", "usertable");
    ConsistencyLevel read = consistency(p, "cassandra.readconsistencylevel");
    ConsistencyLevel write = consistency(p, "cassandra.writeconsistencylevel");
    int port = p.integer("port", 9042, 1, 65535);
    List<InetSocketAddress> contactPoints = new ArrayList<>();
    for (String host : p.string("hosts", "127.0.0.1").split(",")) {
      if (!host.isBlank()) {
        contactPoints.add(InetSocketAddress.createUnresolved(host.trim(), port));
      }
    }
    DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT,
            Duration.ofMillis(p.integer("cassandra.readtimeoutmillis", 12_000, 1, 3_600_000)))
        .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT,
            Duration.ofMillis(p.integer("cassandra.connecttimeoutmillis", 5_000, 1, 3_600_000)))
        .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, p.integer("cassandra.maxconnections", 1, 1, 1024))
        .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, p.integer("cassandra.maxrequestsperconnection", 1024, 1, 32768))
        .withBoolean(DefaultDriverOption.REQUEST_WARN_IF_SET_KEYSPACE, false)
        .build();
    CqlSessionBuilder builder = CqlSession.builder().withConfigLoader(config).addContactPoints(contactPoints)
        .withLocalDatacenter(p.string("cassandra.localdc", "datacenter1"));
    String user = p.string("cassandra.username", null);
    if (user != null) {
      builder.withAuthCredentials(user, p.string("cassandra.password", ""));
    }
    if (p.bool("cassandra.useSSL", false)) {
      try {
        builder.withSslContext(SSLContext.getDefault());
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new DBException("cassandra.useSSL=true but no default TLS context is available: " + e.getMessage());
      }
    }
    CqlSession session;
    try {
      session = builder.build();
    } catch (DriverException | IllegalStateException e) {
      throw new DBException("cannot connect to Cassandra at hosts=" + p.string("hosts", "127.0.0.1") + " port=" + port
          + ": " + e.getMessage(), e);
    }
    try {
      if (p.bool("cassandra.create", false)) {
        create(session, p, keyspace, table);
      }
      if (session.getMetadata().getKeyspace(keyspace).flatMap(k -> k.getTable(table)).isEmpty()) {
        throw new DBException("table " + keyspace + "." + table + " does not exist: create it (docs/bench.md) or set "
            + "cassandra.create=true");
      }
    } catch (DBException | RuntimeException e) {
      session.close();
      throw e;
    }
    return new CqlConnection(session, keyspace, table, read, write);
  }

  private static void create(CqlSession session, BindingProperties p, String keyspace, String table) throws DBException {
    int replication = p.integer("cassandra.replicationfactor", 1, 1, 100);
    int fieldCount = p.integer("fieldcount", 10, 1, 1000);
    String prefix = p.string("fieldnameprefix", "field");
    session.execute(SchemaBuilder.createKeyspace(keyspace).ifNotExists().withSimpleStrategy(replication).build()
        .setTimeout(Duration.ofSeconds(30)));
    CreateTable create = SchemaBuilder.createTable(keyspace, table).ifNotExists().withPartitionKey("y_id", DataTypes.TEXT);
    for (int i = 0; i < fieldCount; i++) {
      String column = prefix + i;
      if (!BindingProperties.isIdentifier(column)) {
        throw new DBException("fieldnameprefix=" + prefix + " is not valid: " + column + " is not a column name");
      }
      create = create.withColumn(column, DataTypes.TEXT);
    }
    session.execute(create.build().setTimeout(Duration.ofSeconds(30)));
    session.checkSchemaAgreement();
    session.refreshSchema();
  }

  private static ConsistencyLevel consistency(BindingProperties p, String name) throws DBException {
    String value = p.string(name, "LOCAL_QUORUM").toUpperCase(Locale.ROOT);
    for (ConsistencyLevel level : com.datastax.oss.driver.api.core.DefaultConsistencyLevel.values()) {
      if (level.name().equals(value)) {
        return level;
      }
    }
    throw new DBException("property " + name + "=" + value + " is not valid: expected one of ONE, TWO, THREE, QUORUM, "
        + "ALL, LOCAL_QUORUM, EACH_QUORUM, LOCAL_ONE, ANY, SERIAL, LOCAL_SERIAL");
  }
}
