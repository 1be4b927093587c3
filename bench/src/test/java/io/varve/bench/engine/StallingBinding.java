package io.varve.bench.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * A test binding that answers at once, except that the 105th operation of the run stalls for 500
 * ms; every 10th read returns NOT_FOUND.
 */
public final class StallingBinding extends DB {
  static final AtomicInteger OPERATIONS = new AtomicInteger();

  private static Status op() {
    if (OPERATIONS.incrementAndGet() == 105) {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return Status.OK;
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Status s = op();
    return OPERATIONS.get() % 10 == 0 ? Status.NOT_FOUND : s;
  }

  @Override
  public Status scan(
      String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
    return op();
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return op();
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return op();
  }

  @Override
  public Status delete(String table, String key) {
    return op();
  }
}
