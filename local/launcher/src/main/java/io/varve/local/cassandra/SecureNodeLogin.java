package io.varve.local.cassandra;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import javax.net.ssl.SSLSocket;

/**
 * Readiness of a secure node, and the one-time making of its role: a node is ready when the role
 * {@value LocalCassandraSecurity#ROLE} logs in over TLS with its generated password. At the first
 * start only Cassandra's default superuser exists ({@code cassandra}, password {@code cassandra});
 * it makes the role, and the role then takes the default superuser's login away, so that the
 * generated password is the only way in. Just enough of CQL native protocol v4 (STARTUP, SASL
 * PLAIN, QUERY) over the JDK's TLS, so that the launcher needs no driver.
 */
final class SecureNodeLogin {

  private static final byte STARTUP = 0x01;
  private static final byte SUPPORTED = 0x06;
  private static final byte OPTIONS = 0x05;
  private static final byte AUTHENTICATE = 0x03;
  private static final byte QUERY = 0x07;
  private static final byte RESULT = 0x08;
  private static final byte AUTH_RESPONSE = 0x0F;
  private static final byte AUTH_SUCCESS = 0x10;
  private static final String DEFAULT_SUPERUSER = "cassandra";

  private SecureNodeLogin() {}

  /**
   * Whether the role logs in now; if only the default superuser does (first start), makes the role
   * first.
   */
  static boolean ready(
      InetSocketAddress address, LocalCassandraSecurity security, Duration timeout) {
    String password = security.rolePassword();
    try {
      if (login(address, security, LocalCassandraSecurity.ROLE, password, timeout, null)) {
        return true;
      }
      if (!login(
          address,
          security,
          DEFAULT_SUPERUSER,
          DEFAULT_SUPERUSER,
          timeout,
          "CREATE ROLE IF NOT EXISTS "
              + LocalCassandraSecurity.ROLE
              + " WITH PASSWORD = '"
              + password
              + "' AND LOGIN = true AND SUPERUSER = true")) {
        return false;
      }
      return login(
          address,
          security,
          LocalCassandraSecurity.ROLE,
          password,
          timeout,
          "ALTER ROLE " + DEFAULT_SUPERUSER + " WITH LOGIN = false");
    } catch (IOException | GeneralSecurityException e) {
      return false;
    }
  }

  /**
   * Whether the node answers a CQL {@code OPTIONS} request over TLS: it has started (and joined its
   * ring), whether or not its role can log in yet (a node of a cluster reads the role from a quorum
   * of the replicas of {@code system_auth}).
   */
  static boolean answers(
      InetSocketAddress address, LocalCassandraSecurity security, Duration timeout) {
    try (SSLSocket socket = connect(address, security, timeout)) {
      return send(
                  socket.getOutputStream(),
                  socket.getInputStream(),
                  OPTIONS,
                  ByteBuffer.allocate(0))
              .opcode()
          == SUPPORTED;
    } catch (IOException | GeneralSecurityException e) {
      return false;
    }
  }

  /**
   * Runs {@code statement} logged in as the role {@value LocalCassandraSecurity#ROLE}.
   *
   * @throws IOException if the role cannot log in or the statement fails; the message says which
   */
  static void execute(
      InetSocketAddress address,
      LocalCassandraSecurity security,
      String statement,
      Duration timeout)
      throws IOException, GeneralSecurityException {
    if (!login(
        address,
        security,
        LocalCassandraSecurity.ROLE,
        security.rolePassword(),
        timeout,
        statement)) {
      throw new IOException("role " + LocalCassandraSecurity.ROLE + " cannot log in on " + address);
    }
  }

  /**
   * Logs in and, if it could, runs {@code statement} (null: none); false when the credentials are
   * refused.
   */
  private static boolean login(
      InetSocketAddress address,
      LocalCassandraSecurity security,
      String user,
      String password,
      Duration timeout,
      String statement)
      throws IOException, GeneralSecurityException {
    try (SSLSocket socket = connect(address, security, timeout)) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      ByteBuffer startup = ByteBuffer.allocate(64);
      startup.putShort((short) 1);
      string(startup, "CQL_VERSION");
      string(startup, "3.0.0");
      if (send(out, in, STARTUP, startup).opcode() != AUTHENTICATE) {
        throw new IOException("the node does not ask for credentials");
      }
      byte[] token = ("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8);
      ByteBuffer response = ByteBuffer.allocate(4 + token.length).putInt(token.length).put(token);
      if (send(out, in, AUTH_RESPONSE, response).opcode() != AUTH_SUCCESS) {
        return false;
      }
      if (statement != null) {
        byte[] text = statement.getBytes(StandardCharsets.UTF_8);
        ByteBuffer query = ByteBuffer.allocate(text.length + 7);
        query.putInt(text.length).put(text).putShort((short) 0x0001).put((byte) 0);
        Frame result = send(out, in, QUERY, query);
        if (result.opcode() != RESULT) {
          throw new IOException("statement failed: " + result.message());
        }
      }
      return true;
    }
  }

  /**
   * A TLS connection to the node, trusting the local authority alone; closing it closes the
   * underlying socket.
   */
  private static SSLSocket connect(
      InetSocketAddress address, LocalCassandraSecurity security, Duration timeout)
      throws IOException, GeneralSecurityException {
    int millis = (int) Math.max(1, timeout.toMillis());
    Socket plain = new Socket();
    try {
      plain.connect(address, millis);
      plain.setSoTimeout(Math.max(millis, 10_000));
      SSLSocket socket =
          (SSLSocket)
              security
                  .clientContext()
                  .getSocketFactory()
                  .createSocket(plain, address.getHostString(), address.getPort(), true);
      socket.startHandshake();
      return socket;
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  private record Frame(byte opcode, byte[] body) {
    String message() {
      ByteBuffer error = ByteBuffer.wrap(body);
      error.getInt();
      byte[] text = new byte[error.getShort()];
      error.get(text);
      return new String(text, StandardCharsets.UTF_8);
    }
  }

  private static Frame send(OutputStream out, InputStream in, byte opcode, ByteBuffer body)
      throws IOException {
    ByteBuffer frame = ByteBuffer.allocate(9 + body.position());
    frame.put(new byte[] {0x04, 0x00, 0x00, 0x00, opcode}).putInt(body.position());
    frame.put(body.array(), 0, body.position());
    out.write(frame.array());
    out.flush();
    DataInputStream data = new DataInputStream(in);
    byte[] header = new byte[9];
    data.readFully(header);
    byte[] response = new byte[ByteBuffer.wrap(header, 5, 4).getInt()];
    data.readFully(response);
    return new Frame(header[4], response);
  }

  private static void string(ByteBuffer buffer, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    buffer.putShort((short) bytes.length).put(bytes);
  }
}
