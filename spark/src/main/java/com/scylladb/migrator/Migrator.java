package com.scylladb.migrator;

import io.varve.command.ExitStatus;
import io.varve.reshaper.cli.ReshaperCli;
import java.util.Arrays;

/**
 * The main class ScyllaDB migrator jobs are submitted with, so that its users' command lines run
 * unchanged: {@code spark-submit --class com.scylladb.migrator.Migrator --conf
 * spark.scylla.config=job.yaml varve-reshaper-spark-submit.jar} runs the reshaper's {@code migrate
 * --config job.yaml} ({@link ReshaperCli}) and exits with its status, from the table of every
 * {@code varve} command. {@code spark-submit} hands its {@code --conf} values to the driver as
 * system properties; outside it, {@code -Dspark.scylla.config=PATH} does the same.
 */
public final class Migrator {

  /** The Spark configuration key that names the job file, as the migrator reads it. */
  public static final String CONFIG = "spark.scylla.config";

  private Migrator() {}

  public static void main(String[] args) {
    int status = run(args, System.getProperty(CONFIG));
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /**
   * Runs the job file {@code config}; arguments after the jar are not read, and a warning names
   * them.
   */
  static int run(String[] args, String config) {
    if (config == null || config.isBlank()) {
      System.err.println(
          "migrate: error: "
              + CONFIG
              + ": missing (expected: the path of the job file: spark-submit --conf "
              + CONFIG
              + "=PATH, or -D"
              + CONFIG
              + "=PATH)");
      return ExitStatus.INVALID_INPUT.code();
    }
    if (args.length > 0) {
      System.err.println(
          "migrate: warning: the arguments "
              + Arrays.toString(args)
              + " have no effect: "
              + Migrator.class.getName()
              + " reads only "
              + CONFIG);
    }
    return ReshaperCli.execute("migrate", "--config", config.trim());
  }
}
