package io.varve.perf.environment;

import io.varve.client.CallSettings;
import io.varve.client.VarveClient;
import io.varve.local.LocalServerStatus;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.LocalVarveServerSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Varve server a benchmark measures, run as its own process exactly as {@code varve up} runs it
 * ({@code varve serve} in its own JVM, heap 1 GiB, G1 unless another JVM is asked for), so that the
 * benchmark client's allocations do not pause it, with its pid file and log under {@code
 * .varve/<name>/}; and the Java clients benchmarks call it through.
 */
public final class VarveServer {

  /** The port of the server of {@code varve up}. */
  public static final int UP_PORT = 8080;

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private final LocalVarveServer process;

  private VarveServer(LocalVarveServer process) {
    this.process = process;
  }

  /**
   * Starts a server of the run's own ({@code .varve/<name>/}, a free port) with this configuration
   * file text (YAML), waits until it answers, and stops it at the end of the run.
   */
  public static VarveServer start(Environment environment, String name, String configuration)
      throws Exception {
    return start(environment, name, configuration, ServerJvm.UP);
  }

  /**
   * As {@link #start(Environment, String, String)}, in this JVM (heap, garbage collector and its
   * settings) instead of {@code varve up}'s.
   */
  public static VarveServer start(
      Environment environment, String name, String configuration, ServerJvm jvm) throws Exception {
    int port = freePort();
    Path config = Files.createTempFile("varve-" + name, ".yaml");
    config.toFile().deleteOnExit();
    Files.writeString(config, configuration);
    return started(
        environment,
        server(environment, port)
            .home(environment.home().resolve(".varve").resolve(name))
            // the built command line's classpath, as varve up runs it: a benchmark on the
            // reshaper's classpath (perf spark) has no server on its own
            .classpath(LocalVarveServerSettings.builtClasspath(environment.home()))
            .heapSize(jvm.heap())
            .jvmOptions(jvm.options())
            .serveArgs(List.of("--config", config.toString(), "--port", Integer.toString(port)))
            .build(),
        "the benchmark's server with a heap of "
            + jvm.heap()
            + " and "
            + String.join(" ", jvm.options()));
  }

  /**
   * The server of {@code varve up} ({@code .varve/server/}, port {@value #UP_PORT}) if it runs and
   * answers.
   */
  public static Optional<VarveServer> up(Environment environment) {
    LocalVarveServer process = new LocalVarveServer(server(environment, UP_PORT).build());
    return process.status().isRunning() && process.isReady()
        ? Optional.of(new VarveServer(process))
        : Optional.empty();
  }

  /**
   * Starts the server of {@code varve up} ({@code .varve/server/}, port {@value #UP_PORT}) with
   * these arguments of {@code varve serve} besides {@code --port}, waits until it answers, and
   * stops it at the end of the run.
   */
  public static VarveServer startUp(Environment environment, List<String> serveArgs)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("--port", Integer.toString(UP_PORT)));
    args.addAll(serveArgs);
    return started(
        environment, server(environment, UP_PORT).serveArgs(args).build(), "the Varve server");
  }

  /**
   * A server in {@code .varve/server/} on this port, run from the benchmark's own classpath as
   * {@code up} runs it; the caller changes what else differs and builds it.
   */
  private static LocalVarveServerSettings.Builder server(Environment environment, int port) {
    return LocalVarveServerSettings.forDevelopment(environment.home()).toBuilder().port(port);
  }

  private static VarveServer started(
      Environment environment, LocalVarveServerSettings settings, String what) {
    LocalVarveServer process = new LocalVarveServer(settings);
    environment.atEnd("stop " + what, () -> process.stop(STOP_TIMEOUT));
    environment.progress(
        "starting " + what + " (" + settings.endpoint() + ", log " + settings.log() + ")");
    process.start();
    process.awaitReady(Environment.START_TIMEOUT);
    return new VarveServer(process);
  }

  /**
   * Stops the server now rather than at the end of the run (SIGTERM, then SIGKILL after 30 s), as
   * before starting another in its place.
   */
  public void stop() {
    process.stop(STOP_TIMEOUT);
  }

  /**
   * Where the API answers: {@code http://127.0.0.1:<port>} (gRPC, {@code POST /v1/<Rpc>}, {@code
   * /metrics}).
   */
  public String apiAddress() {
    return process.settings().endpoint().toString();
  }

  /** The server's process id, or -1 if it no longer runs. */
  public long pid() {
    LocalServerStatus status = process.status();
    return status.isRunning() ? status.pid() : -1L;
  }

  /**
   * A Java client of this server as a benchmark calls it, closed at the end of the run: every call
   * bounded by {@code deadline}, none hedged (one server: a hedge would only add to the load
   * measured) nor retried (a failure is the run's, not a second try hidden in a latency). A call
   * may override these settings with its own ({@link CallSettings}).
   */
  public VarveClient client(Environment environment, Duration deadline) {
    return environment.closeAtEnd(
        "close a client of the benchmark's server",
        VarveClient.builder()
            .endpoint(URI.create(apiAddress()))
            .callSettings(CallSettings.defaults().withoutHedging().withDeadline(deadline))
            .retries(0, Duration.ofMillis(50), Duration.ofSeconds(1))
            .build());
  }

  /** A loopback port free right now, for a server of the run's own. */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
