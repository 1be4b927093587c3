package io.varve.reshaper;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.local.testing.TestCassandra;
import io.varve.reshaper.cli.ReshaperCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The shared test Cassandra, a keyspace of one test class, job files and in-process runs. */
public final class CassandraFixture implements AutoCloseable {
  public final CqlSession session;
  public final String keyspace;
  public final InetSocketAddress address;

  public CassandraFixture(String keyspace) {
    this.keyspace = keyspace;
    this.address = TestCassandra.contactPoint();
    this.session =
        CqlSession.builder()
            .addContactPoint(address)
            .withLocalDatacenter(TestCassandra.localDatacenter())
            .build();
    session.execute(
        com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                "DROP KEYSPACE IF EXISTS " + keyspace)
            .setTimeout(Duration.ofSeconds(60)));
    session.execute(
        com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(
                "CREATE KEYSPACE "
                    + keyspace
                    + " WITH replication = {'class': 'SimpleStrategy',"
                    + " 'replication_factor': 1}")
            .setTimeout(Duration.ofSeconds(60)));
  }

  public void execute(String cql) {
    session.execute(
        com.datastax.oss.driver.api.core.cql.SimpleStatement.newInstance(cql)
            .setTimeout(Duration.ofSeconds(60)));
  }

  public List<Row> rows(String cql) {
    return new ArrayList<>(session.execute(cql).all());
  }

  /** The source/target sections of a job on this server. */
  public String side(String side, String table, String extra) {
    return side(side, keyspace, table, extra);
  }

  /** The source/target sections of a job on a table of another keyspace of this server. */
  public String side(String side, String keyspace, String table, String extra) {
    return side
        + ":\n  type: cassandra\n  host: "
        + address.getHostString()
        + "\n  port: "
        + address.getPort()
        + "\n  localDC: "
        + TestCassandra.localDatacenter()
        + "\n  keyspace: "
        + keyspace
        + "\n  table: "
        + table
        + "\n"
        + extra;
  }

  /** Writes a job file under {@code dir}. */
  public static Path jobFile(Path dir, String name, String yaml) throws IOException {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, yaml);
    return file;
  }

  /** A finished in-process run. */
  public record Run(int status, String out, String err) {
    public String all() {
      return out + err;
    }
  }

  /** Runs the CLI in this JVM, capturing its output. */
  public static synchronized Run cli(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(o);
      System.setErr(e);
      int status = ReshaperCli.execute(args);
      return new Run(
          status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
      oldOut.print(out.toString(StandardCharsets.UTF_8));
      oldErr.print(err.toString(StandardCharsets.UTF_8));
    }
  }

  @Override
  public void close() {
    session.close();
  }
}
