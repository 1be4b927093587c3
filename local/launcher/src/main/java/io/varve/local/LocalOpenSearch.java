package io.varve.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One local single-node OpenSearch, run as its own operating-system process in its own session,
 * so it outlives the JVM that started it and a Ctrl-C of the calling shell. It runs on a JDK 21+
 * (OpenSearch 3 needs it; see {@link LocalOpenSearchSettings#javaExecutable()}), from the jars
 * that {@code local/opensearch-dist} puts in its {@code target/lib}, and listens on 127.0.0.1
 * only.
 *
 * <p>The state lives on disk, in the node's home directory: any number of objects, in any number
 * of JVMs, may control the same node. {@link #start()} is serialized across processes by a lock
 * file in the home directory. A process is only ever signalled after checking that its command
 * line runs {@value #MAIN_CLASS} with this home directory.
 *
 * <p>Thread-safe.
 */
public final class LocalOpenSearch {

  /** The main class that {@code local/opensearch-dist} builds and this launcher runs. */
  public static final String MAIN_CLASS = "io.varve.local.opensearch.SingleNodeRunner";

  private static final String HOME_PROPERTY = "-Dvarve.opensearch.home=";
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  private final LocalOpenSearchSettings settings;
  private final ManagedNode node;

  /** A handle on the node these settings describe; creates nothing and starts nothing. */
  public LocalOpenSearch(LocalOpenSearchSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.node = new ManagedNode("OpenSearch", settings.home(), settings.pidFile(), MAIN_CLASS,
        HOME_PROPERTY + settings.home(), LocalOpenSearchException::new,
        () -> LogTail.describe(settings.systemLog(), settings.stdoutLog()), this::isReady, Duration.ofMillis(250),
        settings.endpoint(), this::launch);
  }

  /** The process lifecycle, for the command line. */
  ManagedNode node() {
    return node;
  }

  /** The settings of this node. */
  public LocalOpenSearchSettings settings() {
    return settings;
  }

  /**
   * Starts the node unless it already runs, and returns without waiting for it to answer (see
   * {@link #awaitReady(Duration)}). Writes {@code config/}, then launches
   * {@code setsid java ... SingleNodeRunner} with its output in {@code logs/stdout.log} and
   * records the pid in {@code opensearch.pid}. A stale pid file is replaced.
   *
   * @return the status of the running node: {@link OpenSearchStatus.State#RUNNING} and its pid
   * @throws LocalOpenSearchException if no JDK 21+ is found, the jars are not built, a port is
   *     taken by another process, or the home directory cannot be written
   */
  public OpenSearchStatus start() {
    return status(node.start());
  }

  /**
   * Waits until the node reports a green or yellow cluster on
   * {@value OpenSearchProbe#HEALTH_PATH}.
   *
   * @throws LocalOpenSearchException if the node is not running, exits while starting, or is
   *     not ready within the timeout; the message names {@code logs/opensearch.log} and quotes
   *     its end and that of {@code logs/stdout.log}
   */
  public void awaitReady(Duration timeout) {
    node.awaitReady(timeout);
  }

  /** Whether the node reports a green or yellow cluster right now. */
  public boolean isReady() {
    return OpenSearchProbe.isHealthy(settings.endpoint(), PROBE_TIMEOUT);
  }

  /**
   * Stops the node: SIGTERM (OpenSearch closes its indices), then SIGKILL if it is still there
   * after the timeout. Removes the pid file; keeps the data. Does nothing if it is not running.
   *
   * @return whether a running node was stopped
   */
  public boolean stop(Duration timeout) {
    return node.stop(timeout);
  }

  /**
   * Kills the node with SIGKILL, as a crash would, and leaves the pid file behind, stale.
   * Does nothing if the node is not running.
   *
   * @return whether a running node was killed
   */
  public boolean kill() {
    return node.kill();
  }

  /** The node's status from its pid file and the live processes; cheap, sends no request. */
  public OpenSearchStatus status() {
    return status(node.status());
  }

  /** The full command that runs the node, {@code java} first. */
  List<String> command() {
    Path lib = settings.libDirectory();
    if (!Files.isDirectory(lib)) {
      throw notBuilt(lib + " does not exist");
    }
    try (var runner = Files.newDirectoryStream(lib, "varve-opensearch-dist-*.jar")) {
      if (!runner.iterator().hasNext()) {
        throw notBuilt("no varve-opensearch-dist-*.jar in " + lib);
      }
    } catch (IOException e) {
      throw new LocalOpenSearchException("Cannot list " + lib, e);
    }
    Path java = settings.javaExecutable().orElseGet(OpenSearchJava::locate);
    OpenSearchJava.requireVersion(java, "java");
    String heap = settings.heapSize();
    // The JVM options of an OpenSearch 3 distribution's config/jvm.options that a node needs.
    return List.of(
        java.toString(),
        "-Xms" + heap,
        "-Xmx" + heap,
        "-XX:+UseG1GC",
        "-XX:+ExitOnOutOfMemoryError",
        "-XX:-OmitStackTraceInFastThrow",
        "-Djava.io.tmpdir=" + settings.home().resolve("tmp"),
        "-Djava.awt.headless=true",
        "-Dfile.encoding=UTF-8",
        "-Djna.nosys=true",
        "-Dio.netty.noUnsafe=true",
        "-Dio.netty.noKeySetOptimization=true",
        "-Dio.netty.recycler.maxCapacityPerThread=0",
        "-Dlog4j.shutdownHookEnabled=false",
        "-Dlog4j2.disable.jmx=true",
        "-Djava.locale.providers=SPI,CLDR",
        "--enable-native-access=ALL-UNNAMED",
        HOME_PROPERTY + settings.home(),
        "-cp", lib + File.separator + "*",
        MAIN_CLASS);
  }

  private long launch() throws IOException {
    List<String> command = command();
    node.requirePortFree(LocalOpenSearchSettings.ADDRESS, settings.httpPort(), " (HTTP)");
    node.requirePortFree(LocalOpenSearchSettings.ADDRESS, settings.transportPort(), " (transport)");
    OpenSearchConfigWriter.write(settings);
    Files.createDirectories(settings.logDirectory());
    Files.createDirectories(settings.dataDirectory());
    Files.createDirectories(settings.home().resolve("tmp"));
    return node.spawn(command, settings.stdoutLog());
  }

  private static LocalOpenSearchException notBuilt(String why) {
    return new LocalOpenSearchException("OpenSearch is not built: " + why + ". Build it with"
        + " `mvn -q -f local/pom.xml -DskipTests install` at the root of the Varve checkout.");
  }

  private OpenSearchStatus status(ManagedNode.Status status) {
    return new OpenSearchStatus(OpenSearchStatus.State.valueOf(status.state().name()), status.pid(),
        settings.endpoint());
  }
}
