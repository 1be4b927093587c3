package io.varve.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on loopback in front of one server that delays what the server sends by a set time (a
 * constant added latency, not a throttle: each chunk leaves when its own delay is over). Requests
 * reach the server at once, so a slowed write is applied on time and only its answer is late: the
 * case where a hedge duplicates it.
 */
final class DelayingProxy implements AutoCloseable {

  private record Chunk(long dueNanos, byte[] bytes) {}

  private static final Chunk END = new Chunk(0, new byte[0]);

  private final ServerSocket listener;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile long delayNanos;
  private final java.util.concurrent.atomic.AtomicInteger accepted =
      new java.util.concurrent.atomic.AtomicInteger();

  DelayingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::accept, "delaying-proxy-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** {@code 127.0.0.1:<port>} of the proxy. */
  String endpoint() {
    return "127.0.0.1:" + listener.getLocalPort();
  }

  /** Connections accepted so far. */
  int connections() {
    return accepted.get();
  }

  /** Delays what the server sends from now on by {@code delay}. */
  void delay(Duration delay) {
    this.delayNanos = delay.toNanos();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        accepted.incrementAndGet();
        Socket server = new Socket();
        server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(server);
        pump(client, server, false);
        pump(server, client, true);
      } catch (IOException e) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, boolean delayed) throws IOException {
    InputStream in = from.getInputStream();
    OutputStream out = to.getOutputStream();
    LinkedBlockingQueue<Chunk> line = new LinkedBlockingQueue<>();
    daemon(
        () -> {
          byte[] buffer = new byte[64 * 1024];
          try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
              long due = System.nanoTime() + (delayed ? delayNanos : 0);
              line.add(new Chunk(due, Arrays.copyOf(buffer, n)));
            }
          } catch (IOException e) {
            // the connection closed
          }
          line.add(END);
        });
    daemon(
        () -> {
          try {
            for (Chunk c = line.take(); c != END; c = line.take()) {
              long wait = c.dueNanos() - System.nanoTime();
              if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
              }
              out.write(c.bytes());
              out.flush();
            }
            to.shutdownOutput();
          } catch (IOException | InterruptedException e) {
            // the connection closed
          }
        });
  }

  private static void daemon(Runnable r) {
    Thread t = new Thread(r, "delaying-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
