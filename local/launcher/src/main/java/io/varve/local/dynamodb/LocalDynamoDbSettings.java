package io.varve.local.dynamodb;

import io.varve.local.Loopback;
import io.varve.local.SettingChecks;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how one local DynamoDB Local server runs: its directory, port, storage and heap.
 *
 * <p>Start from {@link #forDevelopment(Path)} and adjust on a {@link #toBuilder()}, whose {@link
 * Builder#build()} checks the result as the constructor does. The server listens on {@value
 * #ADDRESS} only, uses one database for all credentials and regions ({@code -sharedDb}) and sends
 * no telemetry.
 *
 * <p>The home directory holds {@code dynamodb.pid}, {@code start.lock}, {@code logs/stdout.log}
 * (everything the server prints) and, when persistent, the database file in {@code data/}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param home the server's own directory; made absolute
 * @param libDirectory DynamoDB Local's jars and native libraries, built by {@code
 *     local/dynamodb-dist}; made absolute
 * @param port the HTTP port, 1..65535
 * @param persistent false: tables live in memory and vanish when the server stops; true: they are
 *     kept in {@code <home>/data} ({@code -dbPath})
 * @param heapSize the JVM's maximum heap, like {@code 512m} or {@code 1g}
 * @param javaExecutable the {@code java} to run the server with (Java 17 or later); made absolute
 */
public record LocalDynamoDbSettings(
    Path home,
    Path libDirectory,
    int port,
    boolean persistent,
    String heapSize,
    Path javaExecutable) {

  /** The only address the server listens on. */
  public static final String ADDRESS = Loopback.ADDRESS;

  /** The default HTTP port, DynamoDB Local's own. */
  public static final int DEFAULT_PORT = 8000;

  /** Validates and normalizes the settings; the messages name the setting and what it expects. */
  public LocalDynamoDbSettings {
    home = Objects.requireNonNull(home, "home").toAbsolutePath().normalize();
    libDirectory =
        Objects.requireNonNull(libDirectory, "libDirectory").toAbsolutePath().normalize();
    javaExecutable =
        Objects.requireNonNull(javaExecutable, "javaExecutable").toAbsolutePath().normalize();
    SettingChecks.port("port", port);
    SettingChecks.heapSize(heapSize, "512m or 1g");
  }

  /**
   * The developer's server: home {@code <varveHome>/.varve/dynamodb}, port 8000, in memory, heap
   * 512m, the running JVM's {@code java}.
   */
  public static LocalDynamoDbSettings forDevelopment(Path varveHome) {
    return new LocalDynamoDbSettings(
        varveHome.resolve(".varve/dynamodb"),
        defaultLibDirectory(varveHome),
        DEFAULT_PORT,
        false,
        "512m",
        Path.of(System.getProperty("java.home"), "bin", "java"));
  }

  /** Where the build puts DynamoDB Local: {@code <varveHome>/local/dynamodb-dist/target/lib}. */
  public static Path defaultLibDirectory(Path varveHome) {
    return varveHome.resolve("local/dynamodb-dist/target/lib");
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Settings like others but for what is set: the tests' servers, the command line's options.
   * {@link #build()} checks them as the constructor does.
   */
  public static final class Builder {
    private Path home;
    private Path libDirectory;
    private int port;
    private boolean persistent;
    private String heapSize;
    private Path javaExecutable;

    private Builder(LocalDynamoDbSettings s) {
      home = s.home;
      libDirectory = s.libDirectory;
      port = s.port;
      persistent = s.persistent;
      heapSize = s.heapSize;
      javaExecutable = s.javaExecutable;
    }

    public Builder home(Path value) {
      home = value;
      return this;
    }

    /** The directory of DynamoDB Local's jars. */
    public Builder libDirectory(Path value) {
      libDirectory = value;
      return this;
    }

    public Builder port(int value) {
      port = value;
      return this;
    }

    /** Tables kept in {@code <home>/data} (true) or in memory (false). */
    public Builder persistent(boolean value) {
      persistent = value;
      return this;
    }

    /** The maximum heap, like {@code 256m} or {@code 1g}. */
    public Builder heapSize(String value) {
      heapSize = value;
      return this;
    }

    public Builder javaExecutable(Path value) {
      javaExecutable = value;
      return this;
    }

    /** The settings, checked as the constructor checks them. */
    public LocalDynamoDbSettings build() {
      return new LocalDynamoDbSettings(
          home, libDirectory, port, persistent, heapSize, javaExecutable);
    }
  }

  /** The address clients connect to. */
  public InetSocketAddress address() {
    return Loopback.address(port);
  }

  /** The endpoint to give a DynamoDB client, {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return Loopback.httpEndpoint(port);
  }

  /** {@code <home>/data}: the database file when {@link #persistent()}. */
  public Path dataDirectory() {
    return home.resolve("data");
  }

  /** {@code <home>/logs/stdout.log}: everything the server prints; it keeps no other log. */
  public Path log() {
    return home.resolve("logs").resolve("stdout.log");
  }

  /** {@code <home>/dynamodb.pid}: the process id of the running server. */
  public Path pidFile() {
    return home.resolve("dynamodb.pid");
  }
}
