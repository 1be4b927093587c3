package io.varve.release;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.local.testing.TestCassandra;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as an operator gets it: {@code release/assemble} (what {@code ./varve dist}
 * runs) builds it from this build's modules; it is unpacked in a temporary directory and its {@code
 * bin/varve} serves the test Cassandra, run from another directory with a PATH that holds only
 * bash's few tools (no Maven) and a HOME of its own; an application built by Maven against the
 * client the archive's {@code maven/} installs calls that server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReleaseArchiveIT {

  static final Path CHECKOUT = Path.of(System.getProperty("varve.home")).toAbsolutePath();
  static final String RUN = Long.toString(System.currentTimeMillis() / 1000 % 1_000_000, 36);
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path work;
  static Path archive;
  static Path home;
  static String version;
  static Map<String, String> environment;
  static int port;
  static Process server;
  static Path serverLog;

  @BeforeAll
  static void assembleAndUnpack() throws Exception {
    Result assembled =
        run(
            CHECKOUT,
            Map.of(),
            Duration.ofMinutes(5),
            "bash",
            CHECKOUT.resolve("release/assemble").toString(),
            "--out",
            CHECKOUT.resolve("release/target/dist").toString());
    assertThat(assembled.status()).as(assembled.output()).isZero();
    List<String> lines = assembled.output().lines().toList();
    archive = Path.of(lines.get(lines.size() - 1));
    String name = archive.getFileName().toString();
    assertThat(name).matches("varve-[0-9][^/]*\\.tar\\.gz");
    version = name.substring("varve-".length(), name.length() - ".tar.gz".length());
    Path unpacked = Files.createDirectories(work.resolve("opt"));
    Result untar =
        run(work, Map.of(), Duration.ofMinutes(2), "tar", "-xzf", archive.toString(), "-C", "opt");
    assertThat(untar.status()).as(untar.output()).isZero();
    home = unpacked.resolve("varve-" + version);
    environment = operatorEnvironment();
  }

  @AfterAll
  static void stopServer() throws InterruptedException {
    if (server != null && server.isAlive()) {
      server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  @Order(1)
  void holds_the_command_configuration_unit_licenses_and_every_jar_its_classpaths_name()
      throws IOException {
    assertThat(Files.isExecutable(home.resolve("bin/varve"))).isTrue();
    for (String file :
        List.of(
            "README.md",
            "LICENSE",
            "CHANGELOG.md",
            "conf/jvm.options",
            "conf/reshaper-jvm-options",
            "systemd/varve.service",
            "spark/varve-reshaper-spark-submit.jar",
            "workloads/workloada",
            "monitoring/alerts/varve-alerts.yml",
            "monitoring/dashboards/varve-timeseries.json",
            "monitoring/README.md")) {
      assertThat(home.resolve(file)).as(file).isRegularFile();
    }
    assertThat(Files.readString(home.resolve("conf/varve.yaml")))
        .as("conf/varve.yaml is the server's reference configuration")
        .isEqualTo(
            Files.readString(CHECKOUT.resolve("server/src/main/resources/varve-reference.yaml")));
    assertThat(Files.readString(home.resolve("systemd/varve.service")))
        .contains("ExecStart=/opt/varve/bin/varve serve", "TimeoutStopSec=");
    for (String program : List.of("cli", "reshaper", "verify")) {
      List<String> jars = Files.readAllLines(home.resolve("lib/" + program + ".classpath"));
      assertThat(jars).as(program).hasSizeGreaterThan(20).doesNotHaveDuplicates();
      for (String jar : jars) {
        assertThat(home.resolve("lib").resolve(jar)).as(program + ": " + jar).isRegularFile();
      }
    }
    assertThat(Files.readString(home.resolve("licenses/THIRD-PARTY.txt")))
        .as("the client's, the server's and Spark's dependencies, with their licenses")
        .contains(
            "(com.linecorp.armeria:armeria:",
            "(com.scylladb:java-driver-core:",
            "(org.apache.spark:spark-core_2.12:",
            "Apache License");
    Path client = home.resolve("maven/io/varve/varve-client/" + version);
    for (String suffix : List.of(".jar", "-sources.jar", ".pom")) {
      assertThat(client.resolve("varve-client-" + version + suffix)).isRegularFile();
    }
    try (Stream<Path> files = Files.walk(home)) {
      List<Path> pointingBack =
          files
              .filter(Files::isRegularFile)
              .filter(f -> !f.toString().endsWith(".jar") && !f.toString().endsWith(".pom"))
              .filter(f -> contains(f, CHECKOUT.toString()))
              .toList();
      assertThat(pointingBack).as("files naming the build's checkout").isEmpty();
    }
  }

  @Test
  @Order(2)
  void serves_the_test_cassandra_from_another_directory_with_nothing_but_a_jdk() throws Exception {
    port = freePort();
    Path config = work.resolve("varve.yaml");
    Files.writeString(
        config,
        "server:\n  port: "
            + port
            + "\ncassandra:\n  contactPoints: [\""
            + TestCassandra.contactPoint().getHostString()
            + ":"
            + TestCassandra.contactPoint().getPort()
            + "\"]\n  localDatacenter: "
            + TestCassandra.localDatacenter()
            + "\n  metadataKeyspace: release_it\n");
    Path cwd = Files.createDirectories(work.resolve("elsewhere"));
    serverLog = work.resolve("server.log");
    ProcessBuilder builder =
        new ProcessBuilder(
                home.resolve("bin/varve").toString(), "serve", "--config", config.toString())
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(serverLog.toFile());
    builder.environment().clear();
    builder.environment().putAll(environment);
    builder.environment().put("VARVE_JAVA_OPTS", "-Xms256m -Xmx256m");
    server = builder.start();
    awaitHealthy();

    String namespace = "release_kv_" + RUN;
    post(
        "CreateNamespace",
        "{\"namespace\": \""
            + namespace
            + "\", \"service\": \"KEY_VALUE\", \"persistenceConfiguration\": [{\"id\":"
            + " \"PRIMARY_STORAGE\"}]}");
    String value = Base64.getEncoder().encodeToString("served from a release".getBytes());
    post(
        "PutItems",
        "{\"namespace\": \""
            + namespace
            + "\", \"id\": \"r1\", \"idempotency_token\": {\"generation_time\": \""
            + Instant.now()
            + "\", \"token\": \""
            + UUID.randomUUID()
            + "\"}, \"items\": [{\"key\": \"a2V5\", \"value\": \""
            + value
            + "\"}]}");
    HttpResponse<String> read =
        HTTP.send(
            request("GetItems", "{\"namespace\": \"" + namespace + "\", \"id\": \"r1\"}"),
            HttpResponse.BodyHandlers.ofString());
    assertThat(read.body()).contains(value);
    assertThat(
            HTTP.send(
                    HttpRequest.newBuilder(URI.create(base() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString())
                .body())
        .contains("varve_");
    assertThat(Files.readString(serverLog))
        .as("the server runs from the release's jars, with its JVM options")
        .contains("Varve serving on http://127.0.0.1:" + port);
    assertThat(ProcessHandle.of(server.pid()).flatMap(p -> p.info().commandLine()).orElse(""))
        .contains(home.resolve("lib").toString(), "-XX:+UseG1GC", "-Xmx256m")
        .doesNotContain(CHECKOUT.toString());
  }

  @Test
  @Order(3)
  void an_application_builds_against_the_installed_client_and_calls_the_server() throws Exception {
    Path repository = Files.createDirectories(work.resolve("repository"));
    // The archive README's one command, into a repository of the test's own.
    Result installed =
        run(
            home,
            environment,
            Duration.ofMinutes(1),
            "bash",
            "-c",
            "cp -R maven/. '" + repository + "'/");
    assertThat(installed.status()).as(installed.output()).isZero();
    Path application = copyApplication(work.resolve("application"));
    // Third-party artifacts come first from this build's local repository, served as a remote
    // one, then from the usual remote repository (what the application needs that this build
    // never resolved: the versions its own resolution picks).
    String build = Path.of(System.getProperty("varve.test.maven.repository")).toUri().toString();
    Path settings = work.resolve("settings.xml");
    Files.writeString(
        settings,
        "<settings><profiles><profile><id>build</id>"
            + "<repositories><repository><id>build</id><url>"
            + build
            + "</url></repository></repositories>"
            + "<pluginRepositories><pluginRepository><id>build-plugins</id><url>"
            + build
            + "</url></pluginRepository></pluginRepositories>"
            + "</profile></profiles><activeProfiles><activeProfile>build</activeProfile>"
            + "</activeProfiles></settings>");
    Result built =
        run(
            application,
            Map.of(),
            Duration.ofMinutes(5),
            Path.of(System.getProperty("varve.test.maven.home"), "bin", "mvn").toString(),
            "-B",
            "-q",
            "-s",
            settings.toString(),
            "-Dmaven.repo.local=" + repository,
            "-Dvarve.version=" + version,
            "-DskipTests",
            "package");
    assertThat(built.status()).as(built.output()).isZero();
    assertThat(application.resolve("target/lib/varve-client-" + version + ".jar")).isRegularFile();

    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Result called =
        run(
            application,
            Map.of(),
            Duration.ofMinutes(2),
            java,
            "-cp",
            "target/application.jar:target/lib/*",
            "example.Application",
            base(),
            "release_app_" + RUN);
    assertThat(called.status()).as(called.output()).isZero();
    assertThat(called.output()).contains("name=from an application");
  }

  @Test
  @Order(4)
  void runs_the_tools_and_refuses_what_needs_a_checkout() throws Exception {
    for (String command : List.of("migrate", "verify", "bench")) {
      Result help = run(work, environment, Duration.ofMinutes(1), bin(), command, "--help");
      assertThat(help.status()).as(command + ": " + help.output()).isZero();
      assertThat(help.output()).as(command).contains("Usage:");
    }
    Result up = run(work, environment, Duration.ofMinutes(1), bin(), "up");
    assertThat(up.status()).isEqualTo(2);
    assertThat(up.output()).contains("'up' runs from a source checkout");
    Result unknown = run(work, environment, Duration.ofMinutes(1), bin(), "serv");
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.output()).contains("unknown command 'serv'");
  }

  @Test
  @Order(5)
  void stops_on_sigterm_as_systemd_stops_it() throws Exception {
    server.destroy(); // SIGTERM
    assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("stopped within the unit's 60 s").isTrue();
    assertThat(refused()).isTrue();
  }

  private static boolean refused() {
    try {
      HTTP.send(
          HttpRequest.newBuilder(URI.create(base() + "/health")).build(),
          HttpResponse.BodyHandlers.discarding());
      return false;
    } catch (IOException | InterruptedException e) {
      return true;
    }
  }

  private static String bin() {
    return home.resolve("bin/varve").toString();
  }

  private static String base() {
    return "http://127.0.0.1:" + port;
  }

  private static HttpRequest request(String rpc, String body) {
    return HttpRequest.newBuilder(URI.create(base() + "/v1/" + rpc))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private static void post(String rpc, String body) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(request(rpc, body), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(rpc + ": " + response.body()).isEqualTo(200);
  }

  private static void awaitHealthy() throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    while (Instant.now().isBefore(deadline)) {
      assertThat(server.isAlive()).as(() -> read(serverLog)).isTrue();
      try {
        HttpResponse<String> health =
            HTTP.send(
                HttpRequest.newBuilder(URI.create(base() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (health.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the release's server did not answer /health: " + read(serverLog));
  }

  /**
   * An operator's environment: HOME of its own, JAVA_HOME this JVM's, and a PATH of one directory
   * holding only the tools bin/varve calls, so that nothing of the build (Maven) is found.
   */
  private static Map<String, String> operatorEnvironment() throws IOException {
    Path tools = Files.createDirectories(work.resolve("tools"));
    for (String tool : List.of("bash", "dirname", "readlink", "grep", "cat", "cp", "sed")) {
      Path found = which(tool);
      Files.createSymbolicLink(tools.resolve(tool), found);
    }
    Path userHome = Files.createDirectories(work.resolve("home"));
    return Map.of(
        "HOME", userHome.toString(),
        "PATH", tools.toString(),
        "JAVA_HOME", System.getProperty("java.home"),
        "LANG", "C.UTF-8");
  }

  private static Path which(String tool) {
    for (String dir : List.of("/usr/bin", "/bin")) {
      Path candidate = Path.of(dir, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("no " + tool + " in /usr/bin or /bin");
  }

  private static Path copyApplication(Path target) throws IOException {
    Path source = Path.of(System.getProperty("user.dir"), "src/test/resources/application");
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path copy = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return target;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static boolean contains(Path file, String text) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "(no log)";
    } catch (IOException e) {
      return e.toString();
    }
  }

  record Result(int status, String output) {}

  private static Result run(Path cwd, Map<String, String> env, Duration timeout, String... command)
      throws IOException, InterruptedException {
    Path output = Files.createTempFile(work, "out", ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(new ArrayList<>(List.of(command)))
            .directory(cwd.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    if (!env.isEmpty()) {
      builder.environment().clear();
      builder.environment().putAll(env);
    }
    Process process = builder.start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          String.join(" ", command) + ": still running after " + timeout + ": " + read(output));
    }
    return new Result(process.exitValue(), Files.readString(output));
  }
}
