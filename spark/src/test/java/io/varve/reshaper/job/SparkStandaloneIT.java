package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.testing.TestCassandraCluster;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.SparkStandalone;
import io.varve.reshaper.UsersCase;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deployment the reshaper's docs describe, tested: the users' case submitted with {@code
 * spark-submit} as the ScyllaDB migrator's docs submit a job ({@code --class
 * com.scylladb.migrator.Migrator --conf spark.scylla.config=job.yaml}) to a Spark standalone
 * cluster (a master and two workers from a real Spark 3.5.9 distribution) against the tests'
 * three-node Cassandra cluster with replication factor 3; one worker is SIGKILLed with its executor
 * mid-job, the job still finishes, and the target validates clean. Runs when a distribution is at
 * {@code -Dvarve.spark.home} (default {@code .varve/spark/spark-3.5.9}, which {@code ./varve test
 * spark-cluster} fetches); skipped otherwise.
 */
class SparkStandaloneIT {

  static final String KEYSPACE = "reshaper_standalone_it";
  @TempDir Path dir;

  @Test
  void a_job_submitted_to_a_standalone_cluster_survives_a_lost_worker_and_validates_clean()
      throws Exception {
    Path sparkHome =
        Path.of(
            System.getProperty(
                "varve.spark.home",
                VarveHome.locate().resolve(".varve/spark/spark-3.5.9").toString()));
    assumeTrue(
        Files.isExecutable(sparkHome.resolve("bin/spark-submit")), "no Spark at " + sparkHome);
    LocalCassandraCluster cluster = TestCassandraCluster.get();
    InetSocketAddress contact = cluster.contactPoints().get(0);
    List<UsersCase.Row> rows = UsersCase.generate(3000, 5);
    try (CqlSession session =
        CqlSession.builder()
            .addContactPoints(cluster.contactPoints())
            .withLocalDatacenter(TestCassandraCluster.localDatacenter())
            .build()) {
      for (String cql :
          List.of(
              "DROP KEYSPACE IF EXISTS " + KEYSPACE,
              "CREATE KEYSPACE "
                  + KEYSPACE
                  + " WITH replication = {'class': 'SimpleStrategy',"
                  + " 'replication_factor': 3}",
              "CREATE TABLE " + KEYSPACE + ".ids_by_partnerid " + UsersCase.HISTORY_DDL,
              "CREATE TABLE " + KEYSPACE + ".ids_by_partnerid_history " + UsersCase.HISTORY_DDL)) {
        session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(60)));
      }
      PreparedStatement insert =
          session.prepare(
              "INSERT INTO "
                  + KEYSPACE
                  + ".ids_by_partnerid (partnerid, id, date) VALUES (?, ?, ?)");
      List<CompletionStage<?>> pending = new ArrayList<>();
      for (UsersCase.Row row : rows) {
        pending.add(session.executeAsync(insert.bind(row.partnerid(), row.id(), row.date())));
        if (pending.size() == 64) {
          pending.forEach(f -> f.toCompletableFuture().join());
          pending.clear();
        }
      }
      pending.forEach(f -> f.toCompletableFuture().join());

      Path job = CassandraFixture.jobFile(dir, "standalone", job(contact));
      Path log = dir.resolve("spark-submit.log");
      try (SparkStandalone spark =
          new SparkStandalone(sparkHome, dir.resolve("spark"), 27077, 28080)) {
        spark.start(2);
        Process submit =
            spark
                .submit(
                    List.of(
                        "--master",
                        spark.masterUrl(),
                        "--deploy-mode",
                        "client",
                        "--conf",
                        "spark.driver.host=127.0.0.1",
                        "--conf",
                        "spark.executor.memory=512m",
                        // the migrator's own command line: its main class and job file key
                        "--class",
                        "com.scylladb.migrator.Migrator",
                        "--conf",
                        "spark.scylla.config=" + job,
                        Path.of("target/varve-reshaper-spark-submit.jar")
                            .toAbsolutePath()
                            .toString()),
                    log)
                .start();
        spark.killWorkerDuring(
            submit, () -> Files.readString(log).matches("(?s).*migrate: ranges [1-9].*"), log);
      }
      Set<UsersCase.Row> copied = UsersCase.read(session, KEYSPACE + ".ids_by_partnerid_history");
      assertThat(copied).isEqualTo(new HashSet<>(rows));
    }
    CassandraFixture.Run validate =
        CassandraFixture.cli(
            "migrate", "validate", "--config", dir.resolve("standalone.yaml").toString());
    assertThat(validate.status()).as(validate.all()).isZero();
    assertThat(validate.out()).contains("missing 0, mismatched 0");
  }

  private String job(InetSocketAddress contact) {
    String side =
        ":\n  type: cassandra\n  host: "
            + contact.getHostString()
            + "\n  port: "
            + contact.getPort()
            + "\n  localDC: "
            + TestCassandraCluster.localDatacenter()
            + "\n  keyspace: "
            + KEYSPACE
            + "\n";
    return "source"
        + side
        + "  table: ids_by_partnerid\n  splitCount: 32\n"
        + "target"
        + side
        + "  table: ids_by_partnerid_history\n"
        + "savepoints:\n  path: "
        + dir.resolve("savepoints")
        + "\n  intervalSeconds: 1\nprogress:\n  intervalSeconds: 1\n"
        + "rateLimit: {rowsPerSecond: 1000}\n";
  }
}
