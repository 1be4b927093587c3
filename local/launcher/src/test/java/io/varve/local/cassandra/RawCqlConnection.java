package io.varve.local.cassandra;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Just enough of CQL native protocol v4 to run statements and read one count, so that this module's
 * tests prove durability without a driver on the classpath.
 */
final class RawCqlConnection implements AutoCloseable {

  private static final byte OPCODE_ERROR = 0x00;
  private static final byte OPCODE_STARTUP = 0x01;
  private static final byte OPCODE_READY = 0x02;
  private static final byte OPCODE_QUERY = 0x07;
  private static final byte OPCODE_RESULT = 0x08;
  private static final short CONSISTENCY_ONE = 0x0001;

  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;

  private RawCqlConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = new DataOutputStream(socket.getOutputStream());
  }

  static RawCqlConnection open(InetSocketAddress address) throws IOException {
    Socket socket = new Socket();
    socket.connect(address, 5_000);
    socket.setSoTimeout(30_000);
    socket.setTcpNoDelay(true);
    RawCqlConnection connection = new RawCqlConnection(socket);
    ByteBuffer startup = ByteBuffer.allocate(64);
    startup.putShort((short) 1);
    putString(startup, "CQL_VERSION");
    putString(startup, "3.0.0");
    connection.request(OPCODE_STARTUP, startup, OPCODE_READY);
    return connection;
  }

  /** Runs a statement at consistency ONE and returns the body of its RESULT. */
  byte[] execute(String cql) throws IOException {
    byte[] text = cql.getBytes(StandardCharsets.UTF_8);
    ByteBuffer query = ByteBuffer.allocate(text.length + 7);
    query.putInt(text.length).put(text).putShort(CONSISTENCY_ONE).put((byte) 0);
    return request(OPCODE_QUERY, query, OPCODE_RESULT);
  }

  /** Runs {@code SELECT count(*) ...}: one row of one bigint, the last 8 bytes of the body. */
  long count(String cql) throws IOException {
    ByteBuffer body = ByteBuffer.wrap(execute(cql));
    int end = body.limit();
    if (end < 16 || body.getInt(end - 16) != 1 || body.getInt(end - 12) != 8) {
      throw new IOException("Not a single-row count result: " + cql);
    }
    return body.getLong(end - 8);
  }

  private byte[] request(byte opcode, ByteBuffer body, byte expected) throws IOException {
    // One write per frame: a header sent apart from its body waits out Nagle and delayed ACK.
    ByteBuffer frame = ByteBuffer.allocate(9 + body.position());
    frame.put(new byte[] {0x04, 0x00, 0x00, 0x00, opcode}).putInt(body.position());
    frame.put(body.array(), 0, body.position());
    out.write(frame.array());
    out.flush();
    byte[] header = new byte[9];
    in.readFully(header);
    byte[] response = new byte[ByteBuffer.wrap(header, 5, 4).getInt()];
    in.readFully(response);
    if (header[4] == OPCODE_ERROR) {
      ByteBuffer error = ByteBuffer.wrap(response);
      int code = error.getInt();
      byte[] message = new byte[error.getShort()];
      error.get(message);
      throw new IOException(
          "CQL error 0x"
              + Integer.toHexString(code)
              + ": "
              + new String(message, StandardCharsets.UTF_8));
    }
    if (header[4] != expected) {
      throw new IOException("Unexpected opcode 0x" + Integer.toHexString(header[4]));
    }
    return response;
  }

  private static void putString(ByteBuffer buffer, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    buffer.putShort((short) bytes.length).put(bytes);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
