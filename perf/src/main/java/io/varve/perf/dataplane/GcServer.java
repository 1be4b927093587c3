package io.varve.perf.dataplane;

import io.varve.local.server.LocalVarveServer;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.VarveServer;
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
import java.util.concurrent.TimeUnit;

/**
 * A Varve server process with a garbage collector of the benchmark's choice: {@code varve serve}
 * run as the launcher runs it (same main class, classpath and heap of 1 GiB), whose command line
 * fixes G1, so this one is started here with the collector's flags instead. Its log is {@code
 * .varve/perf-dataplane-gc/<collector>.log}; it is stopped (SIGTERM, then SIGKILL after 30 s) by
 * {@link #close()} or at the end of the run.
 */
final class GcServer implements AutoCloseable {

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final URI endpoint;

  private GcServer(Process process, URI endpoint) {
    this.process = process;
    this.endpoint = endpoint;
  }

  /** The collector's flags on this JVM: ZGC is generational where the JDK has it (21+). */
  static List<String> flags(String collector) {
    return switch (collector) {
      case "g1" -> List.of("-XX:+UseG1GC");
      case "zgc" ->
          Runtime.version().feature() >= 21
              ? List.of("-XX:+UseZGC", "-XX:+ZGenerational")
              : List.of("-XX:+UseZGC");
      default -> throw new IllegalArgumentException("collector: " + collector);
    };
  }

  /** Starts a server with {@code collector}'s flags and this configuration (YAML); waits for it. */
  static GcServer start(Environment environment, String collector, String configuration)
      throws Exception {
    int port = VarveServer.freePort();
    Path home = environment.home().resolve(".varve/perf-dataplane-gc");
    Files.createDirectories(home);
    Path config = home.resolve(collector + ".yaml");
    Files.writeString(config, configuration);
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms1g",
                "-Xmx1g"));
    command.addAll(flags(collector));
    command.addAll(
        List.of(
            "-Dvarve.home=" + environment.home(),
            "-cp",
            System.getProperty("java.class.path"),
            LocalVarveServer.MAIN_CLASS,
            "serve",
            "--config",
            config.toString(),
            "--port",
            Integer.toString(port)));
    Path log = home.resolve(collector + ".log");
    environment.progress(
        "starting a server with "
            + command.subList(3, 3 + flags(collector).size())
            + " (log "
            + log
            + ")");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    GcServer server = new GcServer(process, URI.create("http://127.0.0.1:" + port));
    environment.atEnd("stop the " + collector + " server", server::close);
    server.awaitReady(Environment.START_TIMEOUT, log);
    return server;
  }

  /** {@code 127.0.0.1:<port>}, for the client. */
  String hostPort() {
    return endpoint.getHost() + ":" + endpoint.getPort();
  }

  long pid() {
    return process.pid();
  }

  private void awaitReady(Duration timeout, Path log) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest health =
        HttpRequest.newBuilder(endpoint.resolve("/health")).timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the server exited with " + process.exitValue() + ": " + log);
      }
      try {
        if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("the server did not answer in " + timeout + ": " + log);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }
}
