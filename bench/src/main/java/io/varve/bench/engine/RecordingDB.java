package io.varve.bench.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.function.Supplier;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * Sits between YCSB's {@code DBWrapper} and a binding: times each call into the {@link
 * OperationRecorder} and turns an exception escaping a binding into a counted error (YCSB's client
 * thread would otherwise end the whole process).
 */
final class RecordingDB extends DB {
  private final DB binding;
  private final OperationRecorder recorder;
  private final InitFailures initFailures;

  RecordingDB(DB binding, OperationRecorder recorder, InitFailures initFailures) {
    this.binding = binding;
    this.recorder = recorder;
    this.initFailures = initFailures;
  }

  @Override
  public void setProperties(Properties p) {
    super.setProperties(p);
    binding.setProperties(p);
  }

  @Override
  public void init() throws DBException {
    try {
      binding.init();
    } catch (DBException | RuntimeException e) {
      initFailures.add(e);
      throw e instanceof DBException dbe ? dbe : new DBException(e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    binding.cleanup();
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return timed("READ", () -> binding.read(table, key, fields, result));
  }

  @Override
  public Status scan(
      String table,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return timed("SCAN", () -> binding.scan(table, startkey, recordcount, fields, result));
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return timed("UPDATE", () -> binding.update(table, key, values));
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return timed("INSERT", () -> binding.insert(table, key, values));
  }

  @Override
  public Status delete(String table, String key) {
    return timed("DELETE", () -> binding.delete(table, key));
  }

  private Status timed(String operation, Supplier<Status> call) {
    long intended = Measurements.getMeasurements().getIntendedtartTimeNs();
    long start = System.nanoTime();
    Status status;
    try {
      status = call.get();
      if (status == null) {
        status = Status.ERROR;
      }
    } catch (RuntimeException e) {
      status =
          new Status("EXCEPTION_" + e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
    }
    long end = System.nanoTime();
    recorder.record(operation, status.getName(), status.isOk(), intended, start, end);
    return status;
  }
}
