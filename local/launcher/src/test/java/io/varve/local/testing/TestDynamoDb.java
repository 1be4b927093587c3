package io.varve.local.testing;

import io.varve.local.VarveHome;
import io.varve.local.dynamodb.LocalDynamoDb;
import io.varve.local.dynamodb.LocalDynamoDbSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The DynamoDB API endpoint that integration tests of every module share: one server per test JVM.
 * Tests create their own tables on it, with names unique to the run.
 *
 * <p>If the system property {@value #ADDRESS_PROPERTY} is set to {@code host:port}, that server is
 * used as it is. Otherwise a DynamoDB Local is started in memory on a free port of 127.0.0.1, home
 * {@code .varve/test-dynamodb/<port>}, jars from the system property {@value #LIB_PROPERTY} or
 * {@code local/dynamodb-dist/target/lib}, and stopped when the JVM exits. It starts in about 2 s.
 *
 * <p>Uses the JDK only, so any test classpath can take it. Thread-safe.
 */
public final class TestDynamoDb {

  /** System property naming an external server, {@code host:port}; empty = a local one. */
  public static final String ADDRESS_PROPERTY = "varve.test.dynamodb";

  /** System property naming the directory of DynamoDB Local's jars; empty = the default. */
  public static final String LIB_PROPERTY = "varve.dynamodb.lib";

  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(1);
  private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);
  private static final SharedTestServer<String> SERVER =
      new SharedTestServer<>(
          ADDRESS_PROPERTY, -1, SharedTestServer::httpEndpoint, TestDynamoDb::startLocal);

  private TestDynamoDb() {}

  /**
   * The endpoint of a server that accepts DynamoDB API requests, like {@code
   * http://127.0.0.1:41234}, starting the local one on first use and waiting until it answers. Any
   * access key and secret are accepted by DynamoDB Local.
   *
   * @throws io.varve.local.LocalServerException if the local server cannot start; the message
   *     quotes its log
   */
  public static String endpoint() {
    return SERVER.get();
  }

  /**
   * The directory of DynamoDB Local's jars that {@value #LIB_PROPERTY} names, if set and not empty.
   */
  public static Optional<Path> libDirectory() {
    return SharedTestServer.directory(LIB_PROPERTY);
  }

  private static String startLocal() {
    Path varveHome = VarveHome.locate();
    int port = LocalMachine.freePort();
    LocalDynamoDbSettings.Builder builder =
        LocalDynamoDbSettings.forDevelopment(varveHome).toBuilder()
            .home(varveHome.resolve(".varve/test-dynamodb").resolve(Integer.toString(port)))
            .port(port)
            .heapSize("256m");
    libDirectory().ifPresent(builder::libDirectory);
    LocalDynamoDbSettings settings = builder.build();
    SharedTestServer.startUntilExit(
        new LocalDynamoDb(settings), STARTUP_TIMEOUT, SHUTDOWN_TIMEOUT, false);
    return settings.endpoint().toString();
  }
}
