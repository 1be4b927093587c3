package io.varve.local.opensearch;

import io.varve.local.Loopback;
import io.varve.local.SettingChecks;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how one local OpenSearch node runs: its directory, ports, heap and Java.
 *
 * <p>Start from {@link #forDevelopment(Path)} or {@link #forTests(Path)} and adjust on a {@link
 * #toBuilder()}, whose {@link Builder#build()} checks the result as the constructor does. The node
 * listens on {@value #ADDRESS} only, forms a cluster of its own ({@code discovery.type:
 * single-node}) named {@value #CLUSTER_NAME}, and ignores disk watermarks, so that a nearly full
 * disk of a developer's machine does not leave its indices unassigned.
 *
 * <p>The home directory holds {@code config/} (rewritten at each start), {@code data/} (the
 * indices, kept across restarts), {@code logs/opensearch.log}, {@code logs/stdout.log}, {@code
 * opensearch.pid} and {@code start.lock}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param home the node's own directory; made absolute
 * @param libDirectory OpenSearch's jars and the runner, built by {@code local/opensearch-dist};
 *     made absolute
 * @param httpPort the REST API's port, 1..65535
 * @param transportPort the node-to-node port, 1..65535, not the HTTP port
 * @param heapSize the JVM's heap (minimum and maximum), like {@code 512m} or {@code 1g}
 * @param javaExecutable the {@code java} of a JDK 21+ to run the node with; empty: found at start
 *     (the environment variable {@code VARVE_OPENSEARCH_JAVA}, else the newest JDK 21+ under {@code
 *     /usr/lib/jvm}, else the running JVM if it is 21+)
 */
public record LocalOpenSearchSettings(
    Path home,
    Path libDirectory,
    int httpPort,
    int transportPort,
    String heapSize,
    Optional<Path> javaExecutable) {

  /** The only address the node listens on. */
  public static final String ADDRESS = Loopback.ADDRESS;

  /** The name of the local cluster; a data directory keeps it. */
  public static final String CLUSTER_NAME = "varve-local";

  /** The development node's HTTP port, OpenSearch's own default. */
  public static final int DEFAULT_HTTP_PORT = 9200;

  /** The development node's transport port, OpenSearch's own default. */
  public static final int DEFAULT_TRANSPORT_PORT = 9300;

  /** Validates and normalizes the settings; the messages name the setting and what it expects. */
  public LocalOpenSearchSettings {
    home = Objects.requireNonNull(home, "home").toAbsolutePath().normalize();
    libDirectory =
        Objects.requireNonNull(libDirectory, "libDirectory").toAbsolutePath().normalize();
    javaExecutable =
        Objects.requireNonNull(javaExecutable, "javaExecutable")
            .map(java -> java.toAbsolutePath().normalize());
    SettingChecks.port("httpPort", httpPort);
    SettingChecks.port("transportPort", transportPort);
    if (httpPort == transportPort) {
      throw new IllegalArgumentException(
          "transportPort: " + transportPort + " (expected: a port other than httpPort)");
    }
    SettingChecks.heapSize(heapSize, "512m or 1g");
  }

  /**
   * The developer's node: home {@code <varveHome>/.varve/opensearch}, HTTP 9200, transport 9300,
   * heap 512m, a JDK 21+ found at start.
   */
  public static LocalOpenSearchSettings forDevelopment(Path varveHome) {
    return new LocalOpenSearchSettings(
        varveHome.resolve(".varve/opensearch"),
        defaultLibDirectory(varveHome),
        DEFAULT_HTTP_PORT,
        DEFAULT_TRANSPORT_PORT,
        "512m",
        Optional.empty());
  }

  /**
   * The tests' node, which may run beside the developer's: home {@code
   * <varveHome>/.varve/test-opensearch}, HTTP 19200, transport 19300, heap 512m.
   */
  public static LocalOpenSearchSettings forTests(Path varveHome) {
    return forDevelopment(varveHome).toBuilder()
        .home(varveHome.resolve(".varve/test-opensearch"))
        .httpPort(19200)
        .transportPort(19300)
        .build();
  }

  /** Where the build puts OpenSearch: {@code <varveHome>/local/opensearch-dist/target/lib}. */
  public static Path defaultLibDirectory(Path varveHome) {
    return varveHome.resolve("local/opensearch-dist/target/lib");
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Settings like others but for what is set: the tests' nodes, the command line's options. {@link
   * #build()} checks them as the constructor does, so both ports can change at once, a swap
   * included.
   */
  public static final class Builder {
    private Path home;
    private Path libDirectory;
    private int httpPort;
    private int transportPort;
    private String heapSize;
    private Optional<Path> javaExecutable;

    private Builder(LocalOpenSearchSettings s) {
      home = s.home;
      libDirectory = s.libDirectory;
      httpPort = s.httpPort;
      transportPort = s.transportPort;
      heapSize = s.heapSize;
      javaExecutable = s.javaExecutable;
    }

    public Builder home(Path value) {
      home = value;
      return this;
    }

    /** The directory of OpenSearch's jars. */
    public Builder libDirectory(Path value) {
      libDirectory = value;
      return this;
    }

    public Builder httpPort(int value) {
      httpPort = value;
      return this;
    }

    public Builder transportPort(int value) {
      transportPort = value;
      return this;
    }

    /** The heap, like {@code 256m} or {@code 1g}. */
    public Builder heapSize(String value) {
      heapSize = value;
      return this;
    }

    /** The {@code java} that runs the node, which must be Java 21 or later. */
    public Builder javaExecutable(Path value) {
      javaExecutable = Optional.of(value);
      return this;
    }

    /** The settings, checked as the constructor checks them. */
    public LocalOpenSearchSettings build() {
      return new LocalOpenSearchSettings(
          home, libDirectory, httpPort, transportPort, heapSize, javaExecutable);
    }
  }

  /** The REST API's address. */
  public InetSocketAddress httpAddress() {
    return Loopback.address(httpPort);
  }

  /** The REST endpoint to give a client, {@code http://127.0.0.1:<httpPort>}. */
  public URI endpoint() {
    return Loopback.httpEndpoint(httpPort);
  }

  /** {@code <home>/config}: {@code opensearch.yml} and {@code log4j2.properties}. */
  public Path configDirectory() {
    return home.resolve("config");
  }

  /** {@code <home>/data}: the indices and cluster state, kept across restarts. */
  public Path dataDirectory() {
    return home.resolve("data");
  }

  /** {@code <home>/logs}. */
  public Path logDirectory() {
    return home.resolve("logs");
  }

  /** {@code <home>/logs/opensearch.log}: OpenSearch's log (INFO, rolled at 50 MB, 5 kept). */
  public Path systemLog() {
    return logDirectory().resolve("opensearch.log");
  }

  /** {@code <home>/logs/stdout.log}: the process's output, truncated at each start. */
  public Path stdoutLog() {
    return logDirectory().resolve("stdout.log");
  }

  /** {@code <home>/opensearch.pid}: the process id of the running node. */
  public Path pidFile() {
    return home.resolve("opensearch.pid");
  }
}
