package io.varve.verify.fuzz;

import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Sends fuzz cases to a server over HTTP/JSON and gRPC, as a client would, and tells an answer from
 * a dropped connection. JSON requests are written on a plain socket, byte for byte as generated
 * (paths are not normalized, headers not checked), one connection each; gRPC requests are sent as
 * raw bytes, so that malformed messages reach the server.
 */
public final class ApiClient implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private final URI server;
  private final io.grpc.Channel channel;
  private final Map<String, MethodDescriptor<byte[], byte[]>> methods = new ConcurrentHashMap<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  public ApiClient(URI server) {
    this.server = server;
    TimeSeriesGrpc.TimeSeriesBlockingStub stub =
        GrpcClients.builder(server.toString())
            .maxResponseLength(0)
            .maxRequestMessageLength(-1)
            .maxResponseMessageLength(-1)
            .responseTimeout(TIMEOUT)
            .build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
    this.channel = stub.getChannel();
  }

  /** Sends one case and waits for the answer. */
  public Outcome send(FuzzCase c) {
    return c.transport() == FuzzCase.Transport.GRPC
        ? grpc(c)
        : raw(c.method(), c.path(), c.headers(), c.body());
  }

  /** A plain {@code POST /v1/<rpc>} with a JSON body, through the JDK's HTTP client. */
  public Outcome postJson(String rpc, String json) {
    return send(
        HttpRequest.newBuilder(server.resolve("/v1/" + rpc))
            .timeout(TIMEOUT)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  /** {@code GET path}. */
  public Outcome get(String path) {
    return send(HttpRequest.newBuilder(server.resolve(path)).timeout(TIMEOUT).GET().build());
  }

  private Outcome send(HttpRequest request) {
    try {
      HttpResponse<byte[]> r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      return new Outcome(Integer.toString(r.statusCode()), r.body(), null);
    } catch (IOException e) {
      return Outcome.transport(e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.transport("interrupted");
    }
  }

  private Outcome grpc(FuzzCase c) {
    MethodDescriptor<byte[], byte[]> method =
        methods.computeIfAbsent(
            c.rpc(),
            rpc ->
                MethodDescriptor.<byte[], byte[]>newBuilder()
                    .setType(MethodDescriptor.MethodType.UNARY)
                    .setFullMethodName(ApiGrammar.RPCS.get(rpc) + "/" + rpc)
                    .setRequestMarshaller(BYTES)
                    .setResponseMarshaller(BYTES)
                    .build());
    try {
      byte[] answer =
          ClientCalls.blockingUnaryCall(
              channel,
              method,
              CallOptions.DEFAULT.withDeadlineAfter(TIMEOUT.toSeconds(), TimeUnit.SECONDS),
              c.body());
      return new Outcome("OK", answer, null);
    } catch (StatusRuntimeException e) {
      String code = e.getStatus().getCode().name();
      String description = e.getStatus().getDescription();
      Throwable cause = e.getStatus().getCause();
      // UNAVAILABLE or UNKNOWN raised by the client itself (connection refused or reset) is a
      // dropped connection
      if (cause != null
          && (code.equals("UNAVAILABLE") || code.equals("UNKNOWN") || code.equals("CANCELLED"))) {
        return Outcome.transport(code + ": " + cause);
      }
      return new Outcome(code, new byte[0], description);
    } catch (RuntimeException e) {
      return Outcome.transport(e.toString());
    }
  }

  /** An HTTP/1.1 request written byte for byte on its own connection. */
  private Outcome raw(String method, String path, Map<String, String> headers, byte[] body) {
    String host = server.getHost();
    int port = server.getPort() == -1 ? 80 : server.getPort();
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 10_000);
      socket.setSoTimeout((int) TIMEOUT.toMillis());
      StringBuilder head = new StringBuilder();
      head.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
      head.append("Host: ").append(host).append(':').append(port).append("\r\n");
      boolean chunked = "chunked".equalsIgnoreCase(headers.getOrDefault("Transfer-Encoding", ""));
      for (Map.Entry<String, String> h : headers.entrySet()) {
        head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
      }
      if (!chunked) {
        head.append("Content-Length: ").append(body.length).append("\r\n");
      }
      head.append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (chunked) {
        out.write(
            (Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.write("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      } else {
        try {
          out.write(body);
        } catch (IOException e) {
          // the server may answer (413) and close before reading a large body: read its answer
        }
      }
      out.flush();
      return readResponse(socket.getInputStream());
    } catch (IOException e) {
      return Outcome.transport(e.toString());
    }
  }

  private static Outcome readResponse(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buffer = new byte[65536];
    int headEnd = -1;
    long expected = -1;
    while (true) {
      int n;
      try {
        n = in.read(buffer);
      } catch (IOException e) {
        // a reset after a complete answer (the server closing a connection whose body it did not
        // read) is fine
        if (headEnd > 0) {
          break;
        }
        throw e;
      }
      if (n < 0) {
        break;
      }
      all.write(buffer, 0, n);
      if (headEnd < 0) {
        byte[] sofar = all.toByteArray();
        headEnd = headerEnd(sofar);
        if (headEnd > 0) {
          expected = contentLength(sofar, headEnd);
        }
      }
      if (headEnd > 0 && expected >= 0 && all.size() - headEnd - 4 >= expected) {
        break;
      }
    }
    byte[] bytes = all.toByteArray();
    int end = headerEnd(bytes);
    if (end < 0) {
      return Outcome.transport(
          bytes.length == 0
              ? "connection closed without a response"
              : "connection closed in the middle of the response head ("
                  + bytes.length
                  + " bytes)");
    }
    String head = new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
    String[] statusLine = head.split("\r\n", 2)[0].split(" ");
    if (statusLine.length < 2) {
      return Outcome.transport("malformed status line: " + head.split("\r\n", 2)[0]);
    }
    // a 1xx interim answer (100 Continue): the final one follows
    if (statusLine[1].startsWith("1") && end + 4 < bytes.length) {
      return readResponse(
          new ByteArrayInputStream(java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length)));
    }
    byte[] body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
    return new Outcome(statusLine[1], body, null);
  }

  private static long contentLength(byte[] bytes, int headEnd) {
    String head =
        new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1)
            .toLowerCase(java.util.Locale.ROOT);
    int i = head.indexOf("\r\ncontent-length:");
    if (i < 0) {
      return -1;
    }
    int eol = head.indexOf("\r\n", i + 2);
    try {
      return Long.parseLong(head.substring(i + 17, eol < 0 ? head.length() : eol).trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static int headerEnd(byte[] b) {
    for (int i = 0; i + 3 < b.length; i++) {
      if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        }
      };

  @Override
  public void close() {
    // the gRPC client shares Armeria's default factory, closed with the JVM
  }
}
