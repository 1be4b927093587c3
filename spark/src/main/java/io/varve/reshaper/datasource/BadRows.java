package io.varve.reshaper.datasource;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * The rows a write task's namespace refused: counted, the first {@value #SAMPLES} kept with their
 * reasons. A task fails at its first refused row past {@code maxBadRows}; the job's total is
 * checked when it commits ({@link #commit}).
 */
public final class BadRows {

  static final int SAMPLES = 10;

  /** A task's counts, handed to the driver. */
  public record Result(long written, long badRows, List<String> samples)
      implements WriterCommitMessage {}

  private final String namespace;
  private final long maxBadRows;
  private final List<String> samples = new ArrayList<>();
  private long count;

  public BadRows(String namespace, long maxBadRows) {
    this.namespace = namespace;
    this.maxBadRows = maxBadRows;
  }

  /**
   * Counts row {@code rowNumber} of this task as refused for {@code reason}.
   *
   * @throws BadRowsException when that makes more than {@code maxBadRows}
   */
  public void refuse(long rowNumber, String reason) {
    count++;
    if (samples.size() < SAMPLES) {
      samples.add("row " + rowNumber + " of partition " + taskPartition() + ": " + reason);
    }
    if (count > maxBadRows) {
      throw new BadRowsException(refusal(namespace, count, maxBadRows, samples));
    }
  }

  /** This task's result. */
  public Result result(long written) {
    return new Result(written, count, List.copyOf(samples));
  }

  /**
   * Checks the job's total of refused rows.
   *
   * @throws BadRowsException when it exceeds {@code maxBadRows}
   */
  public static void commit(String namespace, WriterCommitMessage[] messages, long maxBadRows) {
    long written = 0;
    long bad = 0;
    List<String> samples = new ArrayList<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof Result r) {
        written += r.written();
        bad += r.badRows();
        r.samples().stream().limit(SAMPLES - samples.size()).forEach(samples::add);
      }
    }
    if (bad > maxBadRows) {
      throw new BadRowsException(
          refusal(namespace, bad, maxBadRows, samples)
              + " (the "
              + written
              + " other rows were written)");
    }
  }

  private static int taskPartition() {
    org.apache.spark.TaskContext context = org.apache.spark.TaskContext.get();
    return context == null ? -1 : context.partitionId();
  }

  private static String refusal(String namespace, long bad, long max, List<String> samples) {
    return "namespace "
        + namespace
        + " refused "
        + bad
        + " row"
        + (bad == 1 ? "" : "s")
        + ", more than maxBadRows ("
        + max
        + "); "
        + String.join("; ", samples);
  }
}
