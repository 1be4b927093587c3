package io.varve.local.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** This machine, for tests that start local servers of their own: free ports, addresses, homes. */
public final class LocalMachine {

  private LocalMachine() {}

  /** A TCP port of 127.0.0.1 that nothing listens on right now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on 127.0.0.1", e);
    }
  }

  /** A port other than {@code taken} that is free right now. */
  public static int freePortOtherThan(int taken) {
    int port = freePort();
    while (port == taken) {
      port = freePort();
    }
    return port;
  }

  /**
   * {@code count} distinct TCP ports of 127.0.0.1 that nothing listens on right now: each is held
   * open until all are found, so no two are the same.
   */
  public static int[] freePorts(int count) {
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      return held.stream().mapToInt(ServerSocket::getLocalPort).toArray();
    } catch (IOException e) {
      throw new UncheckedIOException("No " + count + " free ports on 127.0.0.1", e);
    } finally {
      for (ServerSocket socket : held) {
        try {
          socket.close();
        } catch (IOException e) {
          // The port is free again when the socket is gone; nothing to do.
        }
      }
    }
  }

  /**
   * An IPv4 address of this machine other than loopback, to check that a server is not reachable on
   * it.
   */
  public static Optional<InetAddress> externalAddress() throws SocketException {
    return NetworkInterface.networkInterfaces()
        .flatMap(NetworkInterface::inetAddresses)
        .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
        .findFirst();
  }

  /** Deletes a directory and all it holds; what cannot be deleted is left behind. */
  public static void deleteTree(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // Left behind; tests use a new directory each run.
    }
  }
}
