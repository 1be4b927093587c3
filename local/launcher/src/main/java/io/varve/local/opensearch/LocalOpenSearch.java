package io.varve.local.opensearch;

import io.varve.local.LocalServer;
import io.varve.local.Product;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One local single-node OpenSearch, run as its own operating-system process in its own session (the
 * lifecycle of every {@link LocalServer}). It runs on a JDK 21+ (OpenSearch 3 needs it; see {@link
 * LocalOpenSearchSettings#javaExecutable()}), from the jars that {@code local/opensearch-dist} puts
 * in its {@code target/lib}, and listens on 127.0.0.1 only.
 *
 * <p>{@link #start()} writes {@code config/}, then launches {@code setsid java ...
 * SingleNodeRunner} with its output in {@code logs/stdout.log} and records the pid in {@code
 * opensearch.pid}; it fails if no JDK 21+ is found, the jars are not built or a port is taken. The
 * node is ready when it reports a green or yellow cluster on {@value OpenSearchProbe#HEALTH_PATH};
 * a failed start names {@code logs/opensearch.log} and quotes its end and that of {@code
 * logs/stdout.log}. {@link #stop} lets it close its indices on SIGTERM and keeps the data.
 *
 * <p>Thread-safe.
 */
public final class LocalOpenSearch extends LocalServer {

  /** The main class that {@code local/opensearch-dist} builds and this launcher runs. */
  public static final String MAIN_CLASS = "io.varve.local.opensearch.SingleNodeRunner";

  private static final String HOME_PROPERTY = "-Dvarve.opensearch.home=";
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  private final LocalOpenSearchSettings settings;

  /** A handle on the node these settings describe; creates nothing and starts nothing. */
  public LocalOpenSearch(LocalOpenSearchSettings settings) {
    super(definition(settings));
    this.settings = settings;
  }

  private static Definition definition(LocalOpenSearchSettings settings) {
    Objects.requireNonNull(settings, "settings");
    return new Definition(
        Product.OPENSEARCH,
        settings.home(),
        settings.pidFile(),
        MAIN_CLASS,
        HOME_PROPERTY + settings.home(),
        List.of(settings.systemLog(), settings.stdoutLog()),
        Duration.ofMillis(250),
        settings.httpAddress(),
        settings.endpoint().toString());
  }

  /** The settings of this node. */
  public LocalOpenSearchSettings settings() {
    return settings;
  }

  /** Whether the node reports a green or yellow cluster right now. */
  @Override
  public boolean isReady() {
    return OpenSearchProbe.isHealthy(settings.endpoint(), PROBE_TIMEOUT);
  }

  /** The full command that runs the node, {@code java} first. */
  List<String> command() {
    Path lib = settings.libDirectory();
    requireBuilt(lib, "varve-opensearch-dist-*.jar");
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
        "-cp",
        lib + File.separator + "*",
        MAIN_CLASS);
  }

  @Override
  protected long launch() throws IOException {
    List<String> command = command();
    requirePortFree(LocalOpenSearchSettings.ADDRESS, settings.httpPort(), " (HTTP)");
    requirePortFree(LocalOpenSearchSettings.ADDRESS, settings.transportPort(), " (transport)");
    OpenSearchConfigWriter.write(settings);
    Files.createDirectories(settings.logDirectory());
    Files.createDirectories(settings.dataDirectory());
    Files.createDirectories(settings.home().resolve("tmp"));
    return spawn(command, settings.stdoutLog());
  }
}
