package io.varve.reshaper.datasource;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.varve.reshaper.copy.Retries;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The writes a data source's task has in flight: at most {@value #MAX_STATEMENTS} statements and
 * {@value #MAX_BYTES} bytes of values at once (a task of 1 MiB values holds 64 of them), each tried
 * {@value #RETRIES} more times. The first that still fails is kept: the task throws it at its next
 * row or at its commit ({@link #check}), so Spark runs the task again.
 */
public final class InFlight {

  public static final int MAX_STATEMENTS = 128;
  public static final int MAX_BYTES = 64 << 20;
  public static final int RETRIES = 5;

  private final CqlSession session;
  private final ConsistencyLevel consistency;
  private final String namespace;
  private final Semaphore statements = new Semaphore(MAX_STATEMENTS);
  private final Semaphore bytes = new Semaphore(MAX_BYTES);
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  public InFlight(CqlSession session, ConsistencyLevel consistency, String namespace) {
    this.session = session;
    this.consistency = consistency;
    this.namespace = namespace;
  }

  /** Sends {@code statement}, of about {@code size} bytes, once there is room for it. */
  public void send(Statement<?> statement, long size) {
    int held = (int) Math.min(MAX_BYTES, size);
    bytes.acquireUninterruptibly(held);
    statements.acquireUninterruptibly();
    Retries.execute(session, statement.setConsistencyLevel(consistency), RETRIES)
        .thenAccept(
            error -> {
              if (error != null) {
                failure.compareAndSet(null, error);
              }
              statements.release();
              bytes.release(held);
            });
  }

  /** Runs {@code statement} now, tried as the others, and returns once it is written. */
  public void await(Statement<?> statement) {
    fail(Retries.execute(session, statement, RETRIES).toCompletableFuture().join());
  }

  /** Waits until every statement sent is done. */
  public void drain() {
    statements.acquireUninterruptibly(MAX_STATEMENTS);
    statements.release(MAX_STATEMENTS);
  }

  /** Throws the first failure of a statement sent, if any. */
  public void check() {
    fail(failure.get());
  }

  /** Throws {@code error}, a write's failure, unless it is null. */
  public void fail(Throwable error) {
    if (error != null) {
      RuntimeException failure =
          new IllegalStateException(
              "a write to namespace " + namespace + " failed: " + error, error);
      throw TableGone.translate(failure, namespace);
    }
  }
}
