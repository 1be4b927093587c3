package io.varve.verify.reliability;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * kill -9 of a reshaper job mid-copy: a source table is filled, a rate-limited copy starts in its
 * own JVM and is SIGKILLed once part of its token ranges are recorded, the same command runs again
 * and must resume (skip the recorded ranges) and finish with status 0, then {@code migrate
 * validate} must find no difference and the target must hold every row.
 */
final class ReshaperKillPhase implements Phase {

  private static final String KEYSPACE = "verify_reshape";
  private static final int ROWS_PER_BATCH = 30;
  private static final int IN_FLIGHT = 32;

  private final int partitions;
  private final int rowsPerPartition;
  private final int rowsPerSecond;

  ReshaperKillPhase(int partitions, int rowsPerPartition, int rowsPerSecond) {
    this.partitions = partitions;
    this.rowsPerPartition = rowsPerPartition;
    this.rowsPerSecond = rowsPerSecond;
  }

  @Override
  public String name() {
    return "reshaper_kill";
  }

  @Override
  public void run(VerifyEnvironment env, Results results) throws Exception {
    Path dir = env.workDir().resolve("reshaper");
    VerifyEnvironment.deleteTree(dir);
    Files.createDirectories(dir);
    long rows = (long) partitions * rowsPerPartition;
    try (CqlSession session =
        CqlSession.builder()
            .addContactPoint(new InetSocketAddress("127.0.0.1", VerifyEnvironment.CQL_PORT))
            .withLocalDatacenter("datacenter1")
            .build()) {
      createTables(session);
      long fillStarted = System.nanoTime();
      fill(session);
      results.put(name() + ".source_rows", rows);
      results.put(name() + ".fill_seconds", (System.nanoTime() - fillStarted) / 1e9);

      Path job = writeJob(dir);
      ReshaperRun first = ReshaperRun.start(env.varveHome(), job, false, dir.resolve("run-1.log"));
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (first.isAlive()
          && System.nanoTime() < deadline
          && (first.rangesTotal() == 0 || first.rangesDone() * 4 < first.rangesTotal())) {
        Thread.sleep(100);
      }
      if (!first.isAlive()) {
        results.fail(
            name() + ".kill",
            "the job ended (status "
                + first.await(10)
                + ") before it could be killed;"
                + " see "
                + dir.resolve("run-1.log"));
        return;
      }
      long pid = first.pid();
      first.kill();
      results.put(
          name() + ".killed",
          "reshaper pid="
              + pid
              + " signal=KILL at ranges "
              + first.rangesDone()
              + "/"
              + first.rangesTotal());

      ReshaperRun second = ReshaperRun.start(env.varveHome(), job, false, dir.resolve("run-2.log"));
      int status = second.await(600);
      results.put(name() + ".rerun_exit", status);
      results.put(name() + ".ranges_resumed", second.rangesDoneEarlier().orElse(-1));
      results.check(name() + ".rerun_exit", status == 0, "0; see " + dir.resolve("run-2.log"));
      results.check(
          name() + ".ranges_resumed",
          second.rangesDoneEarlier().orElse(0) > 0,
          "> 0 (the rerun skips the ranges the killed run recorded)");

      ReshaperRun validate =
          ReshaperRun.start(env.varveHome(), job, true, dir.resolve("validate.log"));
      int validateStatus = validate.await(600);
      results.put(name() + ".validate_exit", validateStatus);
      results.check(
          name() + ".validate_exit",
          validateStatus == 0,
          "0 (no difference); see " + dir.resolve("validate.log"));

      long targetRows =
          session
              .execute(
                  SimpleStatement.newInstance("SELECT COUNT(*) FROM " + KEYSPACE + ".target")
                      .setTimeout(Duration.ofMinutes(2)))
              .one()
              .getLong(0);
      results.put(name() + ".target_rows", targetRows);
      results.check(name() + ".target_rows", targetRows == rows, "= source_rows (" + rows + ")");
    }
  }

  private void createTables(CqlSession session) {
    Duration timeout = Duration.ofMinutes(1);
    session.execute(
        SimpleStatement.newInstance(
                "CREATE KEYSPACE IF NOT EXISTS "
                    + KEYSPACE
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")
            .setTimeout(timeout));
    for (String table : new String[] {"source", "target"}) {
      session.execute(
          SimpleStatement.newInstance("DROP TABLE IF EXISTS " + KEYSPACE + "." + table)
              .setTimeout(timeout));
      session.execute(
          SimpleStatement.newInstance(
                  "CREATE TABLE "
                      + KEYSPACE
                      + "."
                      + table
                      + " (p int, c int, v text, PRIMARY KEY ((p), c))")
              .setTimeout(timeout));
    }
  }

  /** Fills the source in unlogged batches of rows of one partition, a few hundred in flight. */
  private void fill(CqlSession session) throws InterruptedException {
    PreparedStatement insert =
        session.prepare("INSERT INTO " + KEYSPACE + ".source (p, c, v) VALUES (?, ?, ?)");
    Semaphore inFlight = new Semaphore(IN_FLIGHT);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    String padding = "x".repeat(100);
    for (int p = 0; p < partitions && failure.get() == null; p++) {
      for (int first = 0; first < rowsPerPartition; first += ROWS_PER_BATCH) {
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
        for (int c = first; c < Math.min(rowsPerPartition, first + ROWS_PER_BATCH); c++) {
          batch.addStatement(insert.bind(p, c, "row-" + p + "-" + c + "-" + padding));
        }
        inFlight.acquire();
        CompletionStage<?> write =
            session.executeAsync(batch.setTimeout(Duration.ofSeconds(30)).build());
        write.whenComplete(
            (r, e) -> {
              if (e != null) {
                failure.compareAndSet(null, e);
              }
              inFlight.release();
            });
      }
    }
    inFlight.acquire(IN_FLIGHT);
    if (failure.get() != null) {
      throw new IllegalStateException(
          "filling the source table failed: " + failure.get(), failure.get());
    }
  }

  private Path writeJob(Path dir) throws java.io.IOException {
    String side =
        "  host: 127.0.0.1\n  port: "
            + VerifyEnvironment.CQL_PORT
            + "\n  localDC: datacenter1\n"
            + "  keyspace: "
            + KEYSPACE
            + "\n";
    Path job = dir.resolve("job.yaml");
    Files.writeString(
        job,
        "source:\n"
            + side
            + "  table: source\n  consistencyLevel: ONE\n"
            + "target:\n"
            + side
            + "  table: target\n  consistencyLevel: ONE\n"
            + "savepoints:\n  path: "
            + dir.resolve("savepoints")
            + "\n  intervalSeconds: 0\n"
            + "rateLimit:\n  rowsPerSecond: "
            + rowsPerSecond
            + "\n"
            + "progress:\n  intervalSeconds: 1\n"
            + "spark:\n  spark.master: local[2,3]\n");
    return job;
  }
}
