package io.varve.local;

import java.net.InetSocketAddress;
import java.net.URI;

/**
 * 127.0.0.1, the only address the local servers listen on, and the addresses clients reach them at.
 */
public final class Loopback {

  /** The address every local server listens on, and the only one. */
  public static final String ADDRESS = "127.0.0.1";

  private Loopback() {}

  /** {@code 127.0.0.1:<port>}. */
  public static InetSocketAddress address(int port) {
    return new InetSocketAddress(ADDRESS, port);
  }

  /** {@code http://127.0.0.1:<port>}, the endpoint to give an HTTP client. */
  public static URI httpEndpoint(int port) {
    return URI.create("http://" + ADDRESS + ":" + port);
  }
}
