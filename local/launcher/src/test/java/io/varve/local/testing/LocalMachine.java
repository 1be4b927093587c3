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
import java.util.Comparator;
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
