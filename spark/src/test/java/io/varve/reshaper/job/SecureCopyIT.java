package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.testing.TestSecureCassandra;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.UsersCase;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reshaper against a Cassandra that takes TLS only and asks for a password ({@code
 * TestSecureCassandra}): the users' case copied and validated with {@code credentials} and {@code
 * sslOptions} (a PKCS12 trust store of the node's CA) on both sides, and refused without them.
 */
class SecureCopyIT {

  static final String KEYSPACE = "reshaper_secure_it";
  @TempDir static Path dir;
  static LocalCassandraSecurity security;
  static InetSocketAddress address;
  static CqlSession session;
  static List<UsersCase.Row> rows;

  @BeforeAll
  static void start() throws Exception {
    address = TestSecureCassandra.contactPoint();
    security = TestSecureCassandra.security();
    session =
        CqlSession.builder()
            .addContactPoint(address)
            .withLocalDatacenter("datacenter1")
            .withSslContext(security.clientContext())
            .withAuthCredentials(LocalCassandraSecurity.ROLE, security.rolePassword())
            .build();
    execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
    execute(
        "CREATE KEYSPACE "
            + KEYSPACE
            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    execute("CREATE TABLE " + KEYSPACE + ".ids_by_partnerid " + UsersCase.HISTORY_DDL);
    execute("CREATE TABLE " + KEYSPACE + ".ids_by_partnerid_history " + UsersCase.HISTORY_DDL);
    rows = UsersCase.generate(100, 7);
    PreparedStatement insert =
        session.prepare(
            "INSERT INTO " + KEYSPACE + ".ids_by_partnerid (partnerid, id, date) VALUES (?, ?, ?)");
    for (UsersCase.Row row : rows) {
      session.execute(insert.bind(row.partnerid(), row.id(), row.date()));
    }
  }

  @AfterAll
  static void close() {
    if (session != null) {
      session.close();
    }
  }

  static void execute(String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(60)));
  }

  static String side(String side, String table, boolean secure) {
    return side(side, table, secure, security.rolePassword(), security.truststore().toString());
  }

  static String side(
      String side, String table, boolean secure, String password, String truststore) {
    String text =
        side
            + ":\n  type: cassandra\n  host: "
            + address.getHostString()
            + "\n  port: "
            + address.getPort()
            + "\n  localDC: datacenter1\n  keyspace: "
            + KEYSPACE
            + "\n  table: "
            + table
            + "\n";
    if (!secure) {
      return text;
    }
    return text
        + "  credentials: {username: "
        + LocalCassandraSecurity.ROLE
        + ", password: "
        + password
        + "}\n  sslOptions:\n    enabled: true\n    trustStorePath: "
        + truststore
        + "\n    trustStorePassword: "
        + security.storePassword()
        + "\n    trustStoreType: "
        + security.storeType()
        + "\n";
  }

  static Path job(String name, boolean secure) throws Exception {
    return CassandraFixture.jobFile(
        dir,
        name,
        side("source", "ids_by_partnerid", secure)
            + "  splitCount: 8\n"
            + side("target", "ids_by_partnerid_history", secure)
            + "savepoints:\n  path: "
            + dir.resolve("savepoints-" + name)
            + "\n");
  }

  @Test
  void copies_and_validates_the_users_case_over_tls_with_a_password() throws Exception {
    CassandraFixture.Run run =
        CassandraFixture.cli("migrate", "--config", job("copy", true).toString());

    assertThat(run.status()).as(run.all()).isZero();
    Set<UsersCase.Row> copied = UsersCase.read(session, KEYSPACE + ".ids_by_partnerid_history");
    assertThat(copied).isEqualTo(new HashSet<>(rows));
    CassandraFixture.Run validate =
        CassandraFixture.cli("migrate", "validate", "--config", job("copy", true).toString());
    assertThat(validate.status()).as(validate.all()).isZero();
    assertThat(validate.out()).contains("missing 0, mismatched 0");
  }

  @Test
  void without_tls_and_credentials_the_job_cannot_connect_and_exits_4() throws Exception {
    CassandraFixture.Run run =
        CassandraFixture.cli("migrate", "--config", job("plain", false).toString());

    assertThat(run.status()).as(run.all()).isEqualTo(4);
    assertThat(run.err()).contains("unreachable").contains("nothing was written");
  }

  @Test
  void a_password_the_cluster_refuses_is_invalid_input_naming_the_sides_credentials()
      throws Exception {
    Path job =
        CassandraFixture.jobFile(
            dir,
            "wrong-password",
            side(
                    "source",
                    "ids_by_partnerid",
                    true,
                    "not-" + security.rolePassword(),
                    security.truststore().toString())
                + side("target", "ids_by_partnerid_history", true)
                + "savepoints:\n  path: "
                + dir.resolve("savepoints-wrong-password")
                + "\n");

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", job.toString());

    assertThat(run.status()).as(run.all()).isEqualTo(2);
    assertThat(run.err()).contains("source.credentials").contains("refused");
    assertThat(run.all()).doesNotContain("not-" + security.rolePassword());
  }

  @Test
  void a_trust_store_that_does_not_exist_is_invalid_input_naming_the_sides_ssl_options()
      throws Exception {
    Path missing = dir.resolve("no-such-truststore.p12");
    Path job =
        CassandraFixture.jobFile(
            dir,
            "missing-truststore",
            side("source", "ids_by_partnerid", true)
                + side(
                    "target",
                    "ids_by_partnerid_history",
                    true,
                    security.rolePassword(),
                    missing.toString())
                + "savepoints:\n  path: "
                + dir.resolve("savepoints-missing-truststore")
                + "\n");

    CassandraFixture.Run run = CassandraFixture.cli("migrate", "--config", job.toString());

    assertThat(run.status()).as(run.all()).isEqualTo(2);
    assertThat(run.err()).contains("target.sslOptions").contains(missing.toString());
  }
}
