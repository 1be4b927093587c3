package io.varve.local.server;

import io.varve.local.LocalServer;
import io.varve.local.LocalServerException;
import io.varve.local.Loopback;
import io.varve.local.Product;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Varve server ({@code varve serve}) run as its own operating-system process in its own session,
 * with the lifecycle of every {@link LocalServer}: {@code varve up}'s server, a benchmark's, the
 * one a reliability run kills.
 *
 * <p>{@link #start()} checks that the API port is free and launches {@code setsid java ... VarveCli
 * serve <serveArgs>} with its output appended to {@code server.log}, and records the pid in {@code
 * server.pid}. The server is ready when {@code /health} answers 200: over TLS, trusting only the
 * authority of the settings' {@link SecureApi} and sending its token, when they have one. A failed
 * start names {@code server.log} and quotes its end.
 *
 * <p>Thread-safe.
 */
public final class LocalVarveServer extends LocalServer {

  /** The main class of the command line whose {@code serve} runs the server. */
  public static final String MAIN_CLASS = "io.varve.cli.VarveCli";

  private static final String HOME_PROPERTY = "-Dvarve.server.home=";
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();

  private final LocalVarveServerSettings settings;
  private volatile HttpClient secureClient;

  /** A handle on the server these settings describe; creates nothing and starts nothing. */
  public LocalVarveServer(LocalVarveServerSettings settings) {
    super(definition(settings));
    this.settings = settings;
  }

  private static Definition definition(LocalVarveServerSettings settings) {
    Objects.requireNonNull(settings, "settings");
    return new Definition(
        Product.VARVE,
        settings.home(),
        settings.pidFile(),
        MAIN_CLASS,
        HOME_PROPERTY + settings.home(),
        List.of(settings.log()),
        Duration.ofMillis(250),
        Loopback.address(settings.port()),
        settings.endpoint().toString());
  }

  /** The settings of this server. */
  public LocalVarveServerSettings settings() {
    return settings;
  }

  /**
   * Whether {@code /health} answers 200 right now.
   *
   * @throws LocalServerException if the authority of a {@link SecureApi} cannot be read
   */
  @Override
  public boolean isReady() {
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(settings.endpoint().resolve("/health"))
              .timeout(PROBE_TIMEOUT)
              .GET();
      if (settings.secureApi().isPresent()) {
        request.header("Authorization", "Bearer " + settings.secureApi().get().bearerToken());
      }
      return client().send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The plain client, or one that trusts the secure API's authority alone, made once. */
  private HttpClient client() {
    if (settings.secureApi().isEmpty()) {
      return CLIENT;
    }
    HttpClient client = secureClient;
    if (client == null) {
      SecureApi api = settings.secureApi().get();
      try {
        client =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1))
                .sslContext(api.sslContext())
                .build();
      } catch (IOException | GeneralSecurityException e) {
        throw new LocalServerException(
            Product.VARVE, "Cannot trust the certificates of " + api.caCertificate() + ": " + e, e);
      }
      secureClient = client;
    }
    return client;
  }

  /** The full command that runs the server, {@code java} first. */
  List<String> command() {
    String heap = settings.heapSize();
    List<String> command =
        new ArrayList<>(
            List.of(
                settings.javaExecutable().toString(),
                HOME_PROPERTY + settings.home(),
                "-Xms" + heap,
                "-Xmx" + heap,
                // a server that ran out of heap is in an unknown state (a thread may have died
                // mid-work): exit (status 3) so that whatever supervises it starts it afresh
                "-XX:+ExitOnOutOfMemoryError"));
    command.addAll(settings.jvmOptions());
    command.addAll(
        List.of(
            "-Dvarve.home=" + settings.varveHome(),
            "-cp",
            settings.classpath(),
            MAIN_CLASS,
            "serve"));
    command.addAll(settings.serveArgs());
    return command;
  }

  @Override
  protected long launch() throws IOException {
    requirePortFree(LocalVarveServerSettings.ADDRESS, settings.port(), " (API)");
    Files.createDirectories(settings.home());
    // Appended: a reliability run kills and restarts the server, and each run's end explains it.
    return spawn(command(), ProcessBuilder.Redirect.appendTo(settings.log().toFile()));
  }
}
