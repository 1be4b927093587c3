package io.varve.local.cassandra;

import io.varve.local.LocalServerException;
import io.varve.local.Product;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The {@code java} command that runs one node: what {@code bin/cassandra}, {@code cassandra-env.sh}
 * and {@code conf/jvm17-server.options} of a Cassandra 5.0 tarball would assemble, minus the
 * options meant for big production heaps.
 */
final class CassandraCommandLine {

  static final String MAIN_CLASS = "org.apache.cassandra.service.CassandraDaemon";

  /** Java 17 module access that Cassandra 5.0 needs, from its {@code conf/jvm17-server.options}. */
  static final List<String> JAVA17_MODULE_ACCESS =
      List.of(
          "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
          "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
          "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
          "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
          "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
          "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
          "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
          "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
          "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
          "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
          "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
          "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
          "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens", "java.base/java.io=ALL-UNNAMED",
          "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
          "--add-opens", "java.base/java.lang=ALL-UNNAMED",
          "--add-opens", "java.base/java.util=ALL-UNNAMED");

  private CassandraCommandLine() {}

  /**
   * The full command, {@code java} first.
   *
   * @throws LocalServerException if the jars are not built or the runtime is not Java 17
   */
  static List<String> of(LocalCassandraSettings settings) {
    Path lib = settings.libDirectory();
    Path home = settings.home();
    requireJava17(settings.javaExecutable());
    List<String> command = new ArrayList<>();
    command.add(settings.javaExecutable().toString());
    command.add("-Xms" + settings.heapSize());
    command.add("-Xmx" + settings.heapSize());
    command.add("-XX:+UseG1GC");
    command.add("-XX:+ParallelRefProcEnabled");
    command.add("-XX:MaxTenuringThreshold=1");
    command.add("-XX:MaxGCPauseMillis=300");
    // Cassandra warns that a node carrying on after an OutOfMemoryError can corrupt its data.
    command.add("-XX:+ExitOnOutOfMemoryError");
    command.add("-ea");
    command.add("-da:net.openhft...");
    command.add("-Djava.net.preferIPv4Stack=true");
    command.add("-Djdk.attach.allowAttachSelf=true");
    command.add("-Dio.netty.tryReflectionSetAccessible=true");
    command.add("-Dio.netty.allocator.useCacheForAllThreads=true");
    command.add("-Dio.netty.allocator.maxOrder=11");
    command.addAll(JAVA17_MODULE_ACCESS);
    command.add("-javaagent:" + jammJar(lib));
    command.add("-Dcassandra-foreground=yes");
    command.add("-Dcassandra.config=" + settings.confDirectory().resolve("cassandra.yaml").toUri());
    command.add(storageDirArgument(home));
    command.add("-Dcassandra.logdir=" + settings.logDirectory());
    command.add("-Dlogback.configurationFile=" + settings.confDirectory().resolve("logback.xml"));
    command.add("-Dcassandra.jmx.local.port=" + settings.jmxPort());
    command.add("-Dcassandra.ring_delay_ms=" + ringDelayMillis(settings));
    command.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
    // With password authentication, the default superuser is made 10 s after start by default.
    command.add("-Dcassandra.superuser_setup_delay_ms=0");
    command.add("-cp");
    command.add(lib.resolve("*") + java.io.File.pathSeparator + settings.confDirectory());
    command.add(MAIN_CLASS);
    return command;
  }

  /**
   * Cassandra's ring delay. A single node (or a cluster's seed) has no peers to wait for: the 30 s
   * default is pure waste, 1 s. A node joining a cluster waits it for the seed's answer to its
   * first gossip round, failing to start past it ("Unable to contact any seeds": 1 s was seen to
   * fail on a loaded two-core machine), and again while it joins: 10 s, a few seconds more per
   * joining node.
   */
  static int ringDelayMillis(LocalCassandraSettings settings) {
    return settings.address().equals(settings.seed()) ? 1000 : 10_000;
  }

  /** The {@code -Dcassandra.storagedir} argument that ties a process to its home directory. */
  static String storageDirArgument(Path home) {
    return "-Dcassandra.storagedir=" + home;
  }

  private static Path jammJar(Path lib) {
    if (!Files.isDirectory(lib)) {
      throw new LocalServerException(
          Product.CASSANDRA,
          "The Cassandra jars are not built: "
              + lib
              + " does not exist. Build them with `mvn -q -DskipTests install` (or `./varve up`)"
              + " at the root of the Varve checkout.");
    }
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, "jamm-*.jar")) {
      for (Path jar : jars) {
        return jar;
      }
    } catch (IOException e) {
      throw new LocalServerException(Product.CASSANDRA, "Cannot list " + lib, e);
    }
    throw new LocalServerException(
        Product.CASSANDRA,
        "No jamm-*.jar in "
            + lib
            + ": the Cassandra jars are"
            + " incomplete. Rebuild them with `mvn -q -DskipTests install`.");
  }

  /** Checks the JDK's {@code release} file; a runtime without one is given the benefit of doubt. */
  private static void requireJava17(Path java) {
    if (!Files.isExecutable(java)) {
      throw new LocalServerException(Product.CASSANDRA, "No java executable at " + java);
    }
    Optional<String> version = javaVersion(java);
    if (version.isPresent() && !version.get().matches("17(\\..*)?")) {
      throw new LocalServerException(
          Product.CASSANDRA,
          "Cassandra 5.0 is run on Java 17, but "
              + java
              + " is Java "
              + version.get()
              + ". Pass the java of a Java 17 runtime.");
    }
  }

  private static Optional<String> javaVersion(Path java) {
    Properties release = new Properties();
    try (var in = Files.newInputStream(java.toRealPath().getParent().resolveSibling("release"))) {
      release.load(in);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.ofNullable(release.getProperty("JAVA_VERSION")).map(v -> v.replace("\"", ""));
  }
}
