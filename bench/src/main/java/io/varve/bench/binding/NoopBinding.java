package io.varve.bench.binding;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A binding that does nothing and succeeds: what the loader alone can drive. Use it to check that a
 * figure measures the database and not the load generator. With {@code noop.capacity}, every
 * operation passes through a modelled server of that many operations per second ({@link
 * NoopOptions#CAPACITY}): one queue for all threads, reset when a run's first thread starts.
 */
public class NoopBinding extends DB {

  /** The modelled server: when it is next free, in {@link System#nanoTime()}. */
  private static final AtomicLong NEXT_FREE = new AtomicLong();

  /** Threads of the run in progress: the first to start empties the queue. */
  private static final AtomicInteger THREADS = new AtomicInteger();

  private long serviceNanos;

  @Override
  public void init() throws DBException {
    int capacity = BindingOptions.read(NoopOptions.ALL, getProperties()).get(NoopOptions.CAPACITY);
    serviceNanos = capacity == 0 ? 0 : 1_000_000_000L / capacity;
    if (THREADS.getAndIncrement() == 0) {
      NEXT_FREE.set(System.nanoTime());
    }
  }

  @Override
  public void cleanup() {
    THREADS.decrementAndGet();
  }

  /** Waits for the modelled server, if any, to do this operation. */
  private Status served() {
    if (serviceNanos > 0) {
      long done =
          NEXT_FREE.accumulateAndGet(
              System.nanoTime(), (free, now) -> Math.max(free, now) + serviceNanos);
      for (long left = done - System.nanoTime(); left > 0; left = done - System.nanoTime()) {
        LockSupport.parkNanos(left);
      }
    }
    return Status.OK;
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return served();
  }

  @Override
  public Status scan(
      String table,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return served();
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return served();
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return served();
  }

  @Override
  public Status delete(String table, String key) {
    return served();
  }
}
