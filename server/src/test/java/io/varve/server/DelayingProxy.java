package io.varve.server;

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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on loopback that holds each chunk of a server's answers for a set delay before
 * passing it on, in order: a slow store as the network makes one (the kernel here has no {@code
 * netem}). Requests pass at once. The delay can change at any time; it applies to what arrives from
 * then on.
 */
final class DelayingProxy implements AutoCloseable {

  private record Chunk(byte[] bytes, long dueNanos) {}

  private final InetSocketAddress target;
  private final ServerSocket listener;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile long delayNanos;

  DelayingProxy(InetSocketAddress target) throws IOException {
    this.target = target;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    daemon("proxy-accept", this::accept);
  }

  /** Where clients connect. */
  InetSocketAddress address() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
  }

  /** Holds every chunk of answers arriving from now on for {@code delay}. */
  void delay(Duration delay) {
    delayNanos = delay.toNanos();
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
        daemon("proxy-up", () -> pump(client, server));
        BlockingQueue<Chunk> held = new LinkedBlockingQueue<>();
        daemon("proxy-down-read", () -> hold(server, held));
        daemon("proxy-down-write", () -> release(held, client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      in.transferTo(out);
    } catch (IOException e) {
      // a side closed: the other follows
    }
    closeQuietly(to);
  }

  private void hold(Socket from, BlockingQueue<Chunk> held) {
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = from.getInputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        held.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime() + delayNanos));
      }
    } catch (IOException e) {
      // closed
    }
    held.add(new Chunk(null, 0));
  }

  private static void release(BlockingQueue<Chunk> held, Socket to) {
    try (OutputStream out = to.getOutputStream()) {
      while (true) {
        Chunk chunk = held.take();
        if (chunk.bytes() == null) {
          break;
        }
        long wait = chunk.dueNanos() - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        out.write(chunk.bytes());
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // closed
    }
    closeQuietly(to);
  }

  private static void daemon(String name, Runnable task) {
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(DelayingProxy::closeQuietly);
  }
}
