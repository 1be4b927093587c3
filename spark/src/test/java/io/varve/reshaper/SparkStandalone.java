package io.varve.reshaper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Spark standalone cluster on 127.0.0.1 for tests: a master and workers started from a Spark
 * distribution's {@code bin/spark-class} (the one PyPI's {@code pyspark} package carries), each its
 * own process with its log in {@code dir}, stopped with their children (the executors) at {@link
 * #close()}.
 */
public final class SparkStandalone implements AutoCloseable {

  private final Path sparkHome;
  private final Path dir;
  private final int masterPort;
  private final int webPort;
  private final List<Process> processes = new ArrayList<>();
  private final List<Process> workers = new ArrayList<>();

  public SparkStandalone(Path sparkHome, Path dir, int masterPort, int webPort) {
    this.sparkHome = sparkHome;
    this.dir = dir;
    this.masterPort = masterPort;
    this.webPort = webPort;
  }

  /** {@code spark://127.0.0.1:<port>}. */
  public String masterUrl() {
    return "spark://127.0.0.1:" + masterPort;
  }

  /** Starts the master and {@code count} workers of one core and 1 GiB each, and waits for them. */
  public void start(int count) throws IOException, InterruptedException {
    processes.add(
        run(
            "master",
            "org.apache.spark.deploy.master.Master",
            "--host",
            "127.0.0.1",
            "--port",
            Integer.toString(masterPort),
            "--webui-port",
            Integer.toString(webPort)));
    for (int w = 1; w <= count; w++) {
      Process worker =
          run(
              "worker" + w,
              "org.apache.spark.deploy.worker.Worker",
              masterUrl(),
              "--host",
              "127.0.0.1",
              "--cores",
              "1",
              "--memory",
              "1g",
              "--webui-port",
              Integer.toString(webPort + w),
              "--work-dir",
              dir.resolve("work" + w).toString());
      processes.add(worker);
      workers.add(worker);
    }
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (aliveWorkers() < count) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Spark workers did not register; logs in " + dir);
      }
      Thread.sleep(1000);
    }
  }

  /** SIGKILL of worker {@code n} (1-based) and of the executors it runs, as a lost machine. */
  public void killWorker(int n) {
    Process worker = workers.get(n - 1);
    worker.descendants().forEach(ProcessHandle::destroyForcibly);
    worker.destroyForcibly();
  }

  /**
   * Waits until {@code ready} holds while {@code job} (a {@code spark-submit}, its output in {@code
   * log}) runs, kills worker 1 with its executor, and asserts that the job still ends with status 0
   * within 8 minutes.
   */
  public void killWorkerDuring(Process job, java.util.concurrent.Callable<Boolean> ready, Path log)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
    while (!ready.call() && System.nanoTime() < deadline && job.isAlive()) {
      Thread.sleep(200);
    }
    org.assertj.core.api.Assertions.assertThat(job.isAlive())
        .as("the job runs when the worker is killed\n" + Files.readString(log))
        .isTrue();
    killWorker(1);
    org.assertj.core.api.Assertions.assertThat(
            job.waitFor(8, java.util.concurrent.TimeUnit.MINUTES))
        .as("the job finished")
        .isTrue();
    org.assertj.core.api.Assertions.assertThat(job.exitValue()).as(Files.readString(log)).isZero();
  }

  /** The command line of {@code bin/spark-submit} with this cluster's environment. */
  public ProcessBuilder submit(List<String> args, Path log) {
    List<String> command = new ArrayList<>();
    command.add(sparkHome.resolve("bin/spark-submit").toString());
    command.addAll(args);
    return environment(new ProcessBuilder(command))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
  }

  private Process run(String name, String mainClass, String... args) throws IOException {
    Files.createDirectories(dir);
    List<String> command = new ArrayList<>();
    command.add(sparkHome.resolve("bin/spark-class").toString());
    command.add(mainClass);
    command.addAll(List.of(args));
    return environment(new ProcessBuilder(command))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile())
        .start();
  }

  private ProcessBuilder environment(ProcessBuilder builder) {
    Map<String, String> env = builder.environment();
    env.put("SPARK_HOME", sparkHome.toString());
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("SPARK_LOG_DIR", dir.toString());
    return builder;
  }

  private int aliveWorkers() throws InterruptedException {
    try {
      String json =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webPort + "/json/"))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      int at = json.indexOf("\"aliveworkers\"");
      return at < 0
          ? 0
          : Integer.parseInt(json.substring(at).replaceAll("(?s)^[^:]*:\\s*(\\d+).*", "$1"));
    } catch (IOException e) {
      return 0;
    }
  }

  @Override
  public void close() {
    for (Process process : processes) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }
}
