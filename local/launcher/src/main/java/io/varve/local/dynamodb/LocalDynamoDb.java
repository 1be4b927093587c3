package io.varve.local.dynamodb;

import io.varve.local.LocalServer;
import io.varve.local.Product;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One local DynamoDB Local server, run as its own operating-system process in its own session (the
 * lifecycle of every {@link LocalServer}). It listens on 127.0.0.1 only: {@code
 * local/dynamodb-dist}'s {@value #MAIN_CLASS} serves DynamoDB Local with its connector bound to
 * that address.
 *
 * <p>{@link #start()} launches {@code setsid java ... LoopbackServerRunner} with its output in
 * {@code logs/stdout.log} and records the pid in {@code dynamodb.pid}; it fails if the jars are not
 * built or the port is taken. The server is ready when it answers a {@code ListTables} request; a
 * failed start names {@code logs/stdout.log} and quotes its end. An in-memory server loses its
 * tables at {@link #stop}.
 *
 * <p>DynamoDB Local is a correctness stand-in for DynamoDB, not a performance peer: it answers a
 * few hundred writes per second.
 *
 * <p>Thread-safe.
 */
public final class LocalDynamoDb extends LocalServer {

  /** The main class that {@code local/dynamodb-dist} builds and this launcher runs. */
  public static final String MAIN_CLASS = "io.varve.local.dynamodb.LoopbackServerRunner";

  private static final String HOME_PROPERTY = "-Dvarve.dynamodb.home=";
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private final LocalDynamoDbSettings settings;

  /** A handle on the server these settings describe; creates nothing and starts nothing. */
  public LocalDynamoDb(LocalDynamoDbSettings settings) {
    super(definition(settings));
    this.settings = settings;
  }

  private static Definition definition(LocalDynamoDbSettings settings) {
    Objects.requireNonNull(settings, "settings");
    return new Definition(
        Product.DYNAMODB,
        settings.home(),
        settings.pidFile(),
        MAIN_CLASS,
        HOME_PROPERTY + settings.home(),
        List.of(settings.log()),
        Duration.ofMillis(100),
        settings.address(),
        settings.endpoint().toString());
  }

  /** The settings of this server. */
  public LocalDynamoDbSettings settings() {
    return settings;
  }

  /** Whether the server answers a {@code ListTables} request right now. */
  @Override
  public boolean isReady() {
    return DynamoDbProbe.answersListTables(settings.endpoint(), PROBE_TIMEOUT);
  }

  /** The full command that runs the server, {@code java} first. */
  List<String> command() {
    Path lib = settings.libDirectory();
    requireBuilt(lib, "varve-dynamodb-dist-*.jar");
    List<String> command =
        new ArrayList<>(
            List.of(
                settings.javaExecutable().toString(),
                "-Xmx" + settings.heapSize(),
                "-XX:+ExitOnOutOfMemoryError",
                HOME_PROPERTY + settings.home(),
                "-Dvarve.dynamodb.host=" + LocalDynamoDbSettings.ADDRESS,
                // sqlite4java looks for its native library (libsqlite4java-linux-amd64-*.so) here.
                "-Dsqlite4java.library.path=" + lib,
                "-cp",
                lib + File.separator + "*",
                MAIN_CLASS,
                "-port",
                Integer.toString(settings.port()),
                "-sharedDb",
                "-disableTelemetry"));
    if (settings.persistent()) {
      command.addAll(List.of("-dbPath", settings.dataDirectory().toString()));
    } else {
      command.add("-inMemory");
    }
    return command;
  }

  @Override
  protected long launch() throws IOException {
    List<String> command = command();
    requirePortFree(LocalDynamoDbSettings.ADDRESS, settings.port(), "");
    Files.createDirectories(settings.log().getParent());
    if (settings.persistent()) {
      Files.createDirectories(settings.dataDirectory());
    }
    return spawn(command, settings.log());
  }
}
