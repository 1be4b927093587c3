package io.varve.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Varve server run in the background by {@code varve up}: its own process (a new session, so
 * it outlives the shell), a pid file and a log under {@code .varve/server/}.
 */
public final class ServerProcess {

  /** First JVM option of the server process: how a pid is recognised as ours (command lines may be cut). */
  private static final String MARKER = "-Dvarve.process=server";

  private final Path dir;
  private final int port;

  /** The server of {@code varve up}, with its files under {@code .varve/server/}. */
  public ServerProcess(Path varveHome, int port) {
    this(varveHome, "server", port);
  }

  /** A server with its pid file and log under {@code .varve/<name>/}. */
  public ServerProcess(Path varveHome, String name, int port) {
    this.dir = varveHome.resolve(".varve").resolve(name);
    this.port = port;
  }

  public Path log() {
    return dir.resolve("server.log");
  }

  public Path pidFile() {
    return dir.resolve("server.pid");
  }

  public String apiAddress() {
    return "http://127.0.0.1:" + port;
  }

  public Optional<ProcessHandle> running() {
    try {
      if (!Files.exists(pidFile())) {
        return Optional.empty();
      }
      long pid = Long.parseLong(Files.readString(pidFile()).trim());
      return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
          .filter(p -> p.info().commandLine().map(c -> c.contains(MARKER)).orElse(true));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Starts the server unless running, and waits until its health check answers. */
  public void start(List<String> serveArgs, Duration timeout) throws IOException, InterruptedException {
    if (running().isPresent() && healthy()) {
      return;
    }
    if (portInUse()) {
      throw new IllegalStateException("port " + port + " is in use by another process; stop it or choose another"
          + " port with --port");
    }
    Files.createDirectories(dir);
    List<String> command = new ArrayList<>(List.of("setsid",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        MARKER, "-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
        "-Dvarve.home=" + System.getProperty("varve.home", ""),
        "-cp", System.getProperty("java.class.path"), VarveCli.class.getName(), "serve"));
    command.addAll(serveArgs);
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    Files.writeString(pidFile(), Long.toString(process.pid()));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the Varve server exited with status " + process.exitValue()
            + "; its log is " + log() + ":\n" + tail());
      }
      if (healthy()) {
        return;
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("the Varve server did not answer within " + timeout.toSeconds()
        + "s; its log is " + log() + ":\n" + tail());
  }

  public boolean stop(Duration timeout) throws InterruptedException {
    Optional<ProcessHandle> handle = running();
    if (handle.isEmpty()) {
      return false;
    }
    handle.get().destroy();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (handle.get().isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    if (handle.get().isAlive()) {
      handle.get().destroyForcibly();
    }
    try {
      Files.deleteIfExists(pidFile());
    } catch (IOException e) {
      // a stale pid file is recognised as such later
    }
    return true;
  }

  private boolean portInUse() {
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public boolean healthy() {
    try {
      HttpResponse<Void> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(apiAddress() + "/health")).timeout(Duration.ofSeconds(2)).build(),
          HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }
}
