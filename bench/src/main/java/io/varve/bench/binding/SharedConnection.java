package io.varve.bench.binding;

import site.ycsb.DBException;

/**
 * A connection all client threads of a loader share: opened by the first thread's {@code init},
 * closed by the last thread's {@code cleanup}. YCSB creates one binding instance per thread.
 *
 * @param <T> the connection
 */
public final class SharedConnection<T extends AutoCloseable> {
  /** Opens the connection; a failure is the first thread's init failure. */
  @FunctionalInterface
  public interface Opener<T> {
    T open() throws DBException;
  }

  private T connection;
  private int users;

  /** The shared connection, opened on first use. */
  public synchronized T acquire(Opener<T> opener) throws DBException {
    if (connection == null) {
      connection = opener.open();
    }
    users++;
    return connection;
  }

  /** Releases one use; the last one closes the connection. */
  public synchronized void release() {
    if (users > 0 && --users == 0) {
      T closing = connection;
      connection = null;
      try {
        closing.close();
      } catch (Exception e) {
        // Closing at the end of a run: nothing left to report it to.
      }
    }
  }
}
