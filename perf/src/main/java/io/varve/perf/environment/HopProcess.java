package io.varve.perf.environment;

import com.datastax.oss.driver.api.core.CqlSession;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.grpc.GrpcService;
import io.grpc.BindableService;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.Sessions;
import io.varve.server.config.ServerSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A bare hop's process, seen from its benchmark: a gRPC server in a JVM of its own (this classpath)
 * that announces its port on standard output with {@link #PORT_LINE} and stops when its standard
 * input closes. {@link #announce} and {@link #serveUntilStdinCloses} are the hop's side.
 */
public final class HopProcess implements AutoCloseable {

  /** The line with which a hop announces its port on its standard output. */
  public static final String PORT_LINE = "bare-hop port=";

  private static final int START_SECONDS = 60;

  private final Process process;
  private final int port;

  private HopProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts {@code main} with {@code jvmOptions} and {@code args}; its standard error goes to {@code
   * log}. Fails when it has not announced its port within a minute.
   */
  public static HopProcess start(
      List<String> jvmOptions, Class<?> main, List<String> args, Path log) throws IOException {
    Process process =
        new ProcessBuilder(ChildJvm.command(jvmOptions, main, args))
            .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      int port = reader.submit(() -> port(process)).get(START_SECONDS, TimeUnit.SECONDS);
      return new HopProcess(process, port);
    } catch (Exception e) {
      process.destroyForcibly();
      throw new IOException(
          "the bare hop did not start in " + START_SECONDS + " s (log " + log + ")", e);
    } finally {
      reader.shutdownNow();
    }
  }

  private static int port(Process process) throws IOException {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith(PORT_LINE)) {
        return Integer.parseInt(line.substring(PORT_LINE.length()));
      }
    }
    throw new IOException("the bare hop ended before it served");
  }

  /**
   * The hop's side: opens a session to {@code cassandra} (host:port), serves the gRPC service
   * {@code service} makes of it on a free port of 127.0.0.1, announces the port to the benchmark,
   * and stops once the benchmark closed (or lost) the hop's standard input.
   */
  public static void serve(String cassandra, Function<CqlSession, BindableService> service)
      throws IOException {
    InetSocketAddress contact = ServerSettings.contactPoint("cassandra", cassandra);
    CqlSession session =
        Sessions.open(
                CassandraSettings.local(contact.getPort()).withContactPoints(List.of(contact)))
            .toCompletableFuture()
            .join();
    Server server =
        Server.builder()
            .http(new InetSocketAddress("127.0.0.1", 0))
            .service(GrpcService.builder().addService(service.apply(session)).build())
            .build();
    server.start().join();
    System.out.println(PORT_LINE + server.activeLocalPort());
    System.out.flush();
    // the benchmark holds the other end of standard input: its end (or its death) stops this one
    while (System.in.read() >= 0) {
      // nothing is sent
    }
    server.stop().join();
    session.close();
  }

  /** {@code http://127.0.0.1:<port>/}. */
  public String uri() {
    return "http://127.0.0.1:" + port + "/";
  }

  public long pid() {
    return process.pid();
  }

  @Override
  public void close() throws Exception {
    process.getOutputStream().close();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }
}
