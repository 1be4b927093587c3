package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * An idempotent write tried up to {@code 1 + retries} times, 50, 100, 200 ms... apart ({@code
 * failures.retries}). Thread-safe.
 */
public final class Retries {
  private Retries() {}

  /**
   * Executes {@code statement}; the stage completes with null once it succeeded, or with the error
   * of its last attempt. It never completes exceptionally.
   */
  public static CompletionStage<Throwable> execute(
      CqlSession session, Statement<?> statement, int retries) {
    CompletableFuture<Throwable> done = new CompletableFuture<>();
    attempt(session, statement.setIdempotent(true), 0, retries, done);
    return done;
  }

  private static void attempt(
      CqlSession session,
      Statement<?> statement,
      int attempt,
      int retries,
      CompletableFuture<Throwable> done) {
    session
        .executeAsync(statement)
        .whenComplete(
            (result, error) -> {
              if (error == null) {
                done.complete(null);
              } else if (attempt < retries) {
                CompletableFuture.runAsync(
                    () -> attempt(session, statement, attempt + 1, retries, done),
                    CompletableFuture.delayedExecutor(50L << attempt, TimeUnit.MILLISECONDS));
              } else {
                done.complete(error);
              }
            });
  }
}
