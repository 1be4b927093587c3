package io.varve.local;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;

/**
 * 127.0.0.1, the address the local servers listen on, and the addresses clients reach them at. The
 * nodes of a local Cassandra cluster listen on further addresses of the loopback range, {@code
 * 127.0.0.2} and up, which the loopback interface answers without any setup.
 */
public final class Loopback {

  /** The address every local server listens on, and the only one. */
  public static final String ADDRESS = "127.0.0.1";

  private Loopback() {}

  /** {@code 127.0.0.1:<port>}. */
  public static InetSocketAddress address(int port) {
    return new InetSocketAddress(ADDRESS, port);
  }

  /**
   * The loopback address of the {@code n}th node of a local cluster, 1-based: {@code 127.0.0.<n>}.
   */
  public static String nodeAddress(int n) {
    if (n < 1 || n > 254) {
      throw new IllegalArgumentException("node: " + n + " (expected: 1..254)");
    }
    return "127.0.0." + n;
  }

  /** Fails unless {@code address} is an IPv4 address of the loopback range, like 127.0.0.2. */
  public static void requireLoopback(String name, String address) {
    if (address == null || !address.matches("127(\\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}")) {
      throw new IllegalArgumentException(
          name + ": " + address + " (expected: a loopback address, 127.0.0.1 to 127.255.255.254)");
    }
  }

  /**
   * Whether nothing listens on {@code address:port}: a server socket can be bound there now (the
   * probe closes at once).
   */
  public static boolean portFree(String address, int port) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.bind(new InetSocketAddress(address, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** {@code http://127.0.0.1:<port>}, the endpoint to give an HTTP client. */
  public static URI httpEndpoint(int port) {
    return URI.create("http://" + ADDRESS + ":" + port);
  }

  /** {@code https://127.0.0.1:<port>}, the endpoint of a server that serves TLS only. */
  public static URI httpsEndpoint(int port) {
    return URI.create("https://" + ADDRESS + ":" + port);
  }
}
