package io.varve.verify.reliability;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The Varve server under test, run as a separate JVM ({@code VarveCli serve --config <generated yaml>}) from the
 * jars {@code ./varve} builds, bound to 127.0.0.1. Only the process this object started is ever signalled.
 */
public final class ServerNode {

  private final Path varveHome;
  private final Path dir;
  private final int port;
  private final int cqlPort;
  private final String heap;
  private Process process;

  public ServerNode(Path varveHome, Path dir, int port, int cqlPort, String heap) {
    this.varveHome = varveHome;
    this.dir = dir;
    this.port = port;
    this.cqlPort = cqlPort;
    this.heap = heap;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  public Path log() {
    return dir.resolve("server.log");
  }

  public String heap() {
    return heap;
  }

  /** The pid of the running server; fails if none runs. */
  public long pid() {
    if (process == null || !process.isAlive()) {
      throw new IllegalStateException("the Varve server is not running; its log is " + log());
    }
    return process.pid();
  }

  /** Starts the server (its log is appended to) and waits until {@code /health} answers 200. */
  public void start(Duration timeout) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path config = dir.resolve("varve.yaml");
    Files.writeString(config, "server:\n  host: 127.0.0.1\n  port: " + port + "\ncassandra:\n"
        + "  contactPoints: [\"127.0.0.1:" + cqlPort + "\"]\n  localDatacenter: datacenter1\n");
    Path cli = varveHome.resolve("cli/target");
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dvarve.process=verify-server", "-Xms" + heap, "-Xmx" + heap, "-XX:+UseG1GC",
        "-Dvarve.home=" + varveHome, "-cp", cli.resolve("varve-cli.jar") + File.pathSeparator + cli.resolve("lib/*"),
        "io.varve.cli.VarveCli", "serve", "--config", config.toString());
    process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the Varve server exited with status " + process.exitValue()
            + "; its log is " + log() + ":\n" + tail());
      }
      if (healthy()) {
        return;
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("the Varve server did not answer within " + timeout.toSeconds() + " s; its log is "
        + log() + ":\n" + tail());
  }

  /** SIGKILL: the process gets no chance to finish anything. */
  public void kill() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
      process.waitFor();
    }
  }

  /** SIGTERM, then SIGKILL after 30 s. */
  public void stop() throws InterruptedException {
    if (process != null && process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        kill();
      }
    }
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  boolean healthy() {
    try {
      HttpResponse<Void> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(baseUrl() + "/health")).timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The last 30 lines of the server's log. */
  public String tail() {
    try {
      List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }
}
