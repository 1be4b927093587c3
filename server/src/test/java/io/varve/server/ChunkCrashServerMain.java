package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.cassandra.session.CassandraSettings;
import io.varve.local.testing.TestCassandra;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Varve server in a process of its own, for {@link KeyValueChunkCrashIT} to kill and {@link
 * KeyValueLargeValueFloodIT} to squeeze: arguments are the Cassandra contact point ({@code
 * host:port}), the metadata keyspace and a file to write the server's port to once it serves.
 * {@link #start} launches it on the tests' Cassandra, {@link #awaitPort} waits for it to serve.
 */
public final class ChunkCrashServerMain {

  /**
   * A JVM option {@code -D<this>=<bytes>} sets the server's read budget ({@code
   * server.admission.readBytes}).
   */
  static final String READ_BYTES_PROPERTY = "varve.test.readBytes";

  /**
   * A JVM option {@code -D<this>=<ISO-8601 duration>} sets the server's storage timeout ({@code
   * cassandra.requestTimeout}).
   */
  static final String REQUEST_TIMEOUT_PROPERTY = "varve.test.requestTimeout";

  private ChunkCrashServerMain() {}

  /**
   * Launches the server process on the tests' Cassandra with the JVM options {@code jvmOptions};
   * its output goes to {@code dir/server.log}, its port to {@code dir/port}.
   */
  static Process start(String metadataKeyspace, Path dir, List<String> jvmOptions)
      throws IOException {
    InetSocketAddress cassandra = TestCassandra.contactPoint();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ChunkCrashServerMain.class.getName());
    command.add(cassandra.getHostString() + ":" + cassandra.getPort());
    command.add(metadataKeyspace);
    command.add(dir.resolve("port").toString());
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("server.log").toFile())
        .start();
  }

  /**
   * The port of a process {@link #start} launched in {@code dir}, once it serves (90 s at most).
   */
  static int awaitPort(Process server, Path dir) throws IOException, InterruptedException {
    Path portFile = dir.resolve("port");
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (!Files.exists(portFile)) {
      assertThat(server.isAlive()).as("the server process runs").isTrue();
      assertThat(System.nanoTime()).as("the server process starts").isLessThan(deadline);
      Thread.sleep(200);
    }
    return Integer.parseInt(Files.readString(portFile).trim());
  }

  public static void main(String[] args) throws Exception {
    String[] hostPort = args[0].split(":");
    ServerSettings base = ServerSettings.defaults();
    CassandraSettings c =
        base.cassandra()
            .withContactPoints(
                List.of(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]))))
            .withMetadataKeyspace(args[1]);
    String requestTimeout = System.getProperty(REQUEST_TIMEOUT_PROPERTY);
    if (requestTimeout != null) {
      c = c.withRequestTimeout(Duration.parse(requestTimeout));
    }
    ServerSettings settings = base.toBuilder().cassandra(c).port(0).build();
    String readBytes = System.getProperty(READ_BYTES_PROPERTY);
    if (readBytes != null) {
      AdmissionSettings a = settings.admission();
      settings =
          settings.toBuilder()
              .admission(
                  new AdmissionSettings(
                      a.writeBytes(),
                      Long.parseLong(readBytes),
                      a.maxWriteQueueDelay(),
                      a.bufferedWriteBytes(),
                      a.bufferedWriteRetry()))
              .build();
    }
    VarveServer server = VarveServer.start(settings, Clock.systemUTC());
    Path ready = Path.of(args[2]);
    Path partial = ready.resolveSibling(ready.getFileName() + ".tmp");
    Files.writeString(partial, Integer.toString(server.port()));
    Files.move(partial, ready);
    Thread.currentThread().join();
  }
}
