package io.varve.local.cassandra;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * Asks a CQL port whether a Cassandra node serves it, with the smallest exchange the native
 * protocol has: an {@code OPTIONS} request, answered by {@code SUPPORTED} once the node accepts
 * clients. Written by hand so that this module needs no driver.
 */
final class NativeProtocolProbe {

  /** Protocol v4 request header: version, flags, stream id (2 bytes), opcode, body length. */
  static final byte[] OPTIONS_REQUEST = {0x04, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00};

  private static final int RESPONSE_V4 = 0x84;
  private static final int OPCODE_SUPPORTED = 0x06;

  private NativeProtocolProbe() {}

  /** Whether the address answers {@code OPTIONS} with {@code SUPPORTED} within the timeout. */
  static boolean answersOptions(InetSocketAddress address, Duration timeout) {
    int millis = (int) Math.max(1, timeout.toMillis());
    try (Socket socket = new Socket()) {
      socket.connect(address, millis);
      socket.setSoTimeout(millis);
      socket.getOutputStream().write(OPTIONS_REQUEST);
      socket.getOutputStream().flush();
      byte[] header = new byte[9];
      new DataInputStream(socket.getInputStream()).readFully(header);
      return (header[0] & 0xFF) == RESPONSE_V4 && header[4] == OPCODE_SUPPORTED;
    } catch (IOException e) {
      return false;
    }
  }
}
