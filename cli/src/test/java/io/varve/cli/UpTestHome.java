package io.varve.cli;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.server.SecureApi;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A Varve home of a test's own under the checkout's {@code .varve/} (the files by which a checkout
 * is known, and a link to its Cassandra jars), where {@code varve up}, {@code status} and {@code
 * down} run with real processes without touching the developer's {@code .varve/cassandra}, {@code
 * .varve/server} or {@code .varve/secure}; and the calls a client makes to the server of {@code up
 * --secure}.
 *
 * @param home the Varve home
 * @param port the API port of its server
 */
record UpTestHome(Path home, int port) {

  /** {@code .varve/<name>} of the checkout, made a Varve home if it is not one yet. */
  static UpTestHome create(String name, int port) throws IOException {
    Path checkout = VarveHome.locate();
    Path home = checkout.resolve(".varve").resolve(name);
    Path lib = home.resolve("local/cassandra-dist/target/lib");
    Files.createDirectories(lib.getParent());
    if (!Files.exists(lib, LinkOption.NOFOLLOW_LINKS)) {
      Files.createSymbolicLink(lib, LocalCassandraSettings.defaultLibDirectory(checkout));
    }
    for (String marker : List.of("pom.xml", "varve")) {
      if (!Files.exists(home.resolve(marker))) {
        Files.writeString(home.resolve(marker), "");
      }
    }
    return new UpTestHome(home, port);
  }

  /** {@link #create(String, int)} with a port of 127.0.0.1 free right now. */
  static UpTestHome create(String name) throws IOException {
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return create(name, free.getLocalPort());
    }
  }

  /** Runs a {@code varve} command in this home on this server port; returns its exit status. */
  int run(String command, String... args) {
    return inHome(
        () ->
            VarveCli.run(
                Stream.concat(Stream.of(command, "--port", Integer.toString(port)), Stream.of(args))
                    .toArray(String[]::new)));
  }

  /**
   * Runs a {@code varve} command in this home with no port of its own, as a user runs {@code
   * status} or {@code down} after {@code up}: they act on the ports that {@code up} recorded.
   */
  int runOnRecord(String command, String... args) {
    return inHome(
        () ->
            VarveCli.run(
                Stream.concat(Stream.of(command), Stream.of(args)).toArray(String[]::new)));
  }

  /** Runs {@code what} with this home as the Varve home, as the commands find it. */
  <T> T inHome(Supplier<T> what) {
    String before = System.getProperty(VarveHome.PROPERTY);
    System.setProperty(VarveHome.PROPERTY, home.toString());
    try {
      return what.get();
    } finally {
      System.setProperty(VarveHome.PROPERTY, before == null ? "" : before);
    }
  }

  /** The API of {@code up --secure}: {@code https://127.0.0.1:<port>}. */
  String secureApi() {
    return "https://127.0.0.1:" + port;
  }

  /** An HTTP/1.1 client trusting the authority of {@code access} alone. */
  static HttpClient https(SecureApi access) throws IOException, GeneralSecurityException {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .sslContext(access.sslContext())
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** {@code POST <endpoint>/v1/<rpc>} with a JSON body, and the bearer token unless null. */
  static HttpRequest call(String endpoint, String rpc, String json, String token) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(endpoint + "/v1/" + rpc))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return request.build();
  }

  static HttpResponse.BodyHandler<String> ofString() {
    return HttpResponse.BodyHandlers.ofString();
  }
}
