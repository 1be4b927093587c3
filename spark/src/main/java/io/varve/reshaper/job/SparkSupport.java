package io.varve.reshaper.job;

import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session of a job. Under {@code spark-submit} the master and options come from the
 * command line; otherwise ({@code varve migrate}) Spark runs embedded in this JVM, on 127.0.0.1,
 * without its web UI, with one task thread per core (at least 2; each task keeps many asynchronous
 * writes in flight, so more threads only compete with a local database for the cores) and each task
 * tried up to 3 times. The {@code spark} section of the job adds options that the command line did
 * not set.
 */
public final class SparkSupport {
  private SparkSupport() {}

  /** True when no master was given: Spark runs embedded. */
  static boolean embedded() {
    return !new SparkConf(true).contains("spark.master");
  }

  /**
   * The session for a job whose {@code spark} section is {@code jobOptions}; the first job of a JVM
   * creates it, later ones reuse it.
   */
  public static SparkSession session(Map<String, String> jobOptions) {
    SparkConf conf = new SparkConf(true);
    boolean embedded = !conf.contains("spark.master");
    jobOptions.forEach(
        (k, v) -> {
          if (!conf.contains(k)) {
            conf.set(k, v);
          }
        });
    if (embedded) {
      int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
      conf.setIfMissing("spark.master", "local[" + threads + ",3]");
      conf.setIfMissing("spark.driver.host", "127.0.0.1");
      conf.setIfMissing("spark.driver.bindAddress", "127.0.0.1");
      conf.setIfMissing("spark.ui.enabled", "false");
      conf.setIfMissing("spark.sql.shuffle.partitions", Integer.toString(threads * 4));
    }
    conf.setIfMissing("spark.app.name", "varve-reshaper");
    return SparkSession.builder().config(conf).getOrCreate();
  }
}
