package io.varve.perf.dataplane;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on loopback that slows a share of what clients send to a server: a real network delay
 * for the hedging benchmark, on a kernel without {@code netem}. Every connection it accepts is
 * forwarded to the target; each read from the client (a gRPC request's frames usually arrive in
 * one) is held back as {@link DelayChoice} draws before it is forwarded, and what follows it on
 * that connection waits behind it, as on a congested link. Answers come back undelayed.
 *
 * <p>Two threads per connection, blocking I/O: a benchmark's handful of connections, not a
 * server's.
 */
final class DelayProxy implements AutoCloseable {

  private static final int BUFFER_BYTES = 64 * 1024;

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final DelayChoice delays;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong delayed = new AtomicLong();

  private DelayProxy(ServerSocket listener, InetSocketAddress target, DelayChoice delays) {
    this.listener = listener;
    this.target = target;
    this.delays = delays;
  }

  /** A proxy on a free loopback port in front of {@code target}, accepting at once. */
  static DelayProxy start(InetSocketAddress target, DelayChoice delays) throws IOException {
    DelayProxy proxy =
        new DelayProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), target, delays);
    daemon("delay-proxy-accept", proxy::accept);
    return proxy;
  }

  /** Where clients connect: {@code 127.0.0.1:<port>}. */
  String hostPort() {
    return listener.getInetAddress().getHostAddress() + ":" + listener.getLocalPort();
  }

  /** Reads from clients forwarded so far. */
  long reads() {
    return reads.get();
  }

  /** Of those, the ones delayed. */
  long delayed() {
    return delayed.get();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(target.getAddress(), target.getPort());
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(server);
        daemon("delay-proxy-up", () -> pipe(client, server, new SplittableRandom()));
        daemon("delay-proxy-down", () -> pipe(server, client, null));
      } catch (IOException e) {
        // closed, or the server refused one connection: the client sees it fail and reconnects
      }
    }
  }

  /** Copies {@code from} to {@code to}, delaying reads when {@code random} is given. */
  private void pipe(Socket from, Socket to, SplittableRandom random) {
    byte[] buffer = new byte[BUFFER_BYTES];
    try (from;
        to) {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (random != null) {
          reads.incrementAndGet();
          Duration delay = delays.next(random);
          if (!delay.isZero()) {
            delayed.incrementAndGet();
            Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
          }
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side closed: closing both (above) ends the other direction too
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}
