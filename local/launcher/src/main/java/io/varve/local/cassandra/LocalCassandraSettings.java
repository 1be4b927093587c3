package io.varve.local.cassandra;

import io.varve.local.Loopback;
import io.varve.local.SettingChecks;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how one local Cassandra node runs: its directories, ports, heap and durability.
 *
 * <p>Start from {@link #forDevelopment(Path)} or {@link #forTests(Path)} and adjust on a {@link
 * #toBuilder()}, whose {@link Builder#build()} checks the result as the constructor does. The node
 * listens on one loopback address only, {@value #ADDRESS} by default, and its cluster is always
 * named {@value #CLUSTER_NAME}, since Cassandra refuses to start on a data directory saved under
 * another cluster name. A node of a {@link LocalCassandraCluster} listens on another address of the
 * loopback range ({@code 127.0.0.2}, ...) with the same CQL and storage ports, and names the
 * cluster's first node as its seed.
 *
 * <p>The home directory holds everything the node writes: {@code data/}, {@code commitlog/}, {@code
 * saved_caches/}, {@code hints/}, {@code logs/}, {@code conf/} and {@code cassandra.pid}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param home the node's own directory; made absolute
 * @param libDirectory the Cassandra jars, built by {@code local/cassandra-dist}; made absolute
 * @param cqlPort the CQL native transport port, 1..65535
 * @param storagePort the inter-node port, 1..65535
 * @param jmxPort the JMX port, reachable from this machine only, 1..65535
 * @param heapSize the JVM heap, both initial and maximum, like {@code 768m} or {@code 1g}
 * @param commitlogSync when writes are fsynced, see {@link CommitlogSync}
 * @param javaExecutable the {@code java} of a Java 17 runtime; made absolute
 * @param address the loopback address the node listens on, {@code 127.0.0.1} unless it is one node
 *     of a {@link LocalCassandraCluster}
 * @param seed the address of the node that others contact to join the cluster (its storage port is
 *     this node's): the node's own address when it runs alone
 * @param security TLS on the CQL port and password authentication, with the material and
 *     credentials of {@link LocalCassandraSecurity}; empty: plain CQL, no credentials
 */
public record LocalCassandraSettings(
    Path home,
    Path libDirectory,
    int cqlPort,
    int storagePort,
    int jmxPort,
    String heapSize,
    CommitlogSync commitlogSync,
    Path javaExecutable,
    String address,
    String seed,
    Optional<LocalCassandraSecurity> security) {

  /** The cluster name written to {@code cassandra.yaml}; never changes. */
  public static final String CLUSTER_NAME = "Varve Local";

  /** The address a node listens on unless it is one node of a cluster. */
  public static final String ADDRESS = Loopback.ADDRESS;

  /** The data center name that Cassandra's {@code SimpleSnitch} gives the node. */
  public static final String DATACENTER = "datacenter1";

  /** Validates and normalizes the settings; the messages name the setting and what it expects. */
  public LocalCassandraSettings {
    home = absolute(home, "home");
    libDirectory = absolute(libDirectory, "libDirectory");
    javaExecutable = absolute(javaExecutable, "javaExecutable");
    SettingChecks.port("cqlPort", cqlPort);
    SettingChecks.port("storagePort", storagePort);
    SettingChecks.port("jmxPort", jmxPort);
    if (cqlPort == storagePort || cqlPort == jmxPort || storagePort == jmxPort) {
      throw new IllegalArgumentException(
          "ports: cql="
              + cqlPort
              + " storage="
              + storagePort
              + " jmx="
              + jmxPort
              + " (expected: three different ports)");
    }
    SettingChecks.heapSize(heapSize, "768m or 1g");
    Objects.requireNonNull(commitlogSync, "commitlogSync");
    Loopback.requireLoopback("address", address);
    Loopback.requireLoopback("seed", seed);
    Objects.requireNonNull(security, "security");
  }

  /**
   * The developer's instance: home {@code <varveHome>/.varve/cassandra}, CQL 9042, storage 7000,
   * JMX 7199, heap 1g, batch commit log, the running JVM's {@code java}.
   */
  public static LocalCassandraSettings forDevelopment(Path varveHome) {
    return new LocalCassandraSettings(
        varveHome.resolve(".varve/cassandra"),
        defaultLibDirectory(varveHome),
        9042,
        7000,
        7199,
        "1g",
        CommitlogSync.batch(),
        runningJava(),
        ADDRESS,
        ADDRESS,
        Optional.empty());
  }

  /**
   * The instance that integration tests share, beside the developer's: home {@code
   * <varveHome>/.varve/test-cassandra}, CQL 19042, storage 17000, JMX 17199, heap 1g, batch commit
   * log, the running JVM's {@code java}. The whole suite shares it: its schema grows with every
   * test's keyspaces, and with 768m it ran out of heap once the tests of large values joined.
   */
  public static LocalCassandraSettings forTests(Path varveHome) {
    return forDevelopment(varveHome).toBuilder()
        .home(varveHome.resolve(".varve/test-cassandra"))
        .ports(19042, 17000, 17199)
        .heapSize("1g")
        .build();
  }

  /**
   * Where the build puts the Cassandra jars: {@code <varveHome>/local/cassandra-dist/target/lib}.
   */
  public static Path defaultLibDirectory(Path varveHome) {
    return varveHome.resolve("local/cassandra-dist/target/lib");
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Settings like others but for what is set: a test's or a benchmark's node, the nodes of a {@link
   * LocalCassandraCluster}, the command line's options. {@link #build()} checks them as the
   * constructor does.
   */
  public static final class Builder {
    private Path home;
    private Path libDirectory;
    private int cqlPort;
    private int storagePort;
    private int jmxPort;
    private String heapSize;
    private CommitlogSync commitlogSync;
    private Path javaExecutable;
    private String address;
    private String seed;
    private Optional<LocalCassandraSecurity> security;

    private Builder(LocalCassandraSettings s) {
      home = s.home;
      libDirectory = s.libDirectory;
      cqlPort = s.cqlPort;
      storagePort = s.storagePort;
      jmxPort = s.jmxPort;
      heapSize = s.heapSize;
      commitlogSync = s.commitlogSync;
      javaExecutable = s.javaExecutable;
      address = s.address;
      seed = s.seed;
      security = s.security;
    }

    public Builder home(Path value) {
      home = value;
      return this;
    }

    /** The directory of Cassandra jars. */
    public Builder libDirectory(Path value) {
      libDirectory = value;
      return this;
    }

    public Builder cqlPort(int value) {
      cqlPort = value;
      return this;
    }

    /** The storage (inter-node) port. */
    public Builder storagePort(int value) {
      storagePort = value;
      return this;
    }

    public Builder jmxPort(int value) {
      jmxPort = value;
      return this;
    }

    /** All three ports at once, for moving a whole instance aside. */
    public Builder ports(int newCqlPort, int newStoragePort, int newJmxPort) {
      return cqlPort(newCqlPort).storagePort(newStoragePort).jmxPort(newJmxPort);
    }

    /** The heap, like {@code 512m} or {@code 2g}. */
    public Builder heapSize(String value) {
      heapSize = value;
      return this;
    }

    /** The commit log's durability mode. */
    public Builder commitlogSync(CommitlogSync value) {
      commitlogSync = value;
      return this;
    }

    /** The {@code java} executable that runs Cassandra (it must be Java 17). */
    public Builder javaExecutable(Path value) {
      javaExecutable = value;
      return this;
    }

    public Builder address(String value) {
      address = value;
      return this;
    }

    public Builder seed(String value) {
      seed = value;
      return this;
    }

    /**
     * Another loopback address to listen on, and the cluster joined through {@code newSeed}: one
     * node of a {@link LocalCassandraCluster}.
     */
    public Builder address(String newAddress, String newSeed) {
      return address(newAddress).seed(newSeed);
    }

    /**
     * The CQL port takes TLS only and asks for a password ({@code PasswordAuthenticator}), with the
     * material and role of {@code value}.
     */
    public Builder security(LocalCassandraSecurity value) {
      security = Optional.of(value);
      return this;
    }

    /** The settings, checked as the constructor checks them. */
    public LocalCassandraSettings build() {
      return new LocalCassandraSettings(
          home,
          libDirectory,
          cqlPort,
          storagePort,
          jmxPort,
          heapSize,
          commitlogSync,
          javaExecutable,
          address,
          seed,
          security);
    }
  }

  /** The address CQL clients connect to. */
  public InetSocketAddress cqlAddress() {
    return new InetSocketAddress(address, cqlPort);
  }

  /** {@code <home>/conf}: the generated {@code cassandra.yaml} and {@code logback.xml}. */
  public Path confDirectory() {
    return home.resolve("conf");
  }

  /** {@code <home>/logs}: {@code system.log} and the process output, {@code stdout.log}. */
  public Path logDirectory() {
    return home.resolve("logs");
  }

  /** {@code <home>/logs/system.log}, Cassandra's own log. */
  public Path systemLog() {
    return logDirectory().resolve("system.log");
  }

  /** {@code <home>/logs/stdout.log}: what the process wrote to stdout and stderr. */
  public Path stdoutLog() {
    return logDirectory().resolve("stdout.log");
  }

  /** {@code <home>/cassandra.pid}: the process id of the running node. */
  public Path pidFile() {
    return home.resolve("cassandra.pid");
  }

  private static Path runningJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  private static Path absolute(Path path, String name) {
    return Objects.requireNonNull(path, name).toAbsolutePath().normalize();
  }
}
