package io.varve.local.server;

import io.varve.local.Loopback;
import io.varve.local.SettingChecks;
import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where and how a Varve server runs as a process of its own ({@code varve serve}): its directory,
 * API port, heap, classpath and the arguments of {@code serve}.
 *
 * <p>Start from {@link #forDevelopment(Path)} and adjust on a {@link #toBuilder()}, whose {@link
 * Builder#build()} checks the result as the constructor does. The home directory holds {@code
 * server.pid}, {@code start.lock} and {@code server.log}, all the process prints, appended to
 * across restarts.
 *
 * <p>Immutable and thread-safe.
 *
 * @param home the server's own directory; made absolute
 * @param varveHome the Varve checkout, given to the server as {@code -Dvarve.home}; made absolute
 * @param port the API port (gRPC, HTTP/JSON, {@code /health}) on 127.0.0.1, 1..65535; the server
 *     must be told to serve there (by {@code --port} or its configuration file)
 * @param heapSize the JVM heap, both initial and maximum, like {@code 1g}
 * @param jvmOptions the JVM's other options, after the heap: the garbage collector and its settings
 *     ({@link #DEFAULT_JVM_OPTIONS}, G1, unless replaced), each starting with {@code -}
 * @param classpath the classpath that holds {@value LocalVarveServer#MAIN_CLASS} and its jars
 * @param javaExecutable the {@code java} to run the server with (Java 17 or later); made absolute
 * @param serveArgs the arguments of {@code varve serve}, like {@code --config varve.yaml}
 * @param secureApi how to reach an API served over TLS that asks for a bearer token (the server
 *     must be configured so, by the {@code --config} of {@code serveArgs}); empty: plain HTTP, no
 *     token
 */
public record LocalVarveServerSettings(
    Path home,
    Path varveHome,
    int port,
    String heapSize,
    List<String> jvmOptions,
    String classpath,
    Path javaExecutable,
    List<String> serveArgs,
    Optional<SecureApi> secureApi) {

  /** The only address the server is asked on. */
  public static final String ADDRESS = Loopback.ADDRESS;

  /** The JVM options of {@code varve up}'s server: the G1 collector. */
  public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-XX:+UseG1GC");

  /** Validates and normalizes the settings; the messages name the setting and what it expects. */
  public LocalVarveServerSettings {
    home = Objects.requireNonNull(home, "home").toAbsolutePath().normalize();
    varveHome = Objects.requireNonNull(varveHome, "varveHome").toAbsolutePath().normalize();
    javaExecutable =
        Objects.requireNonNull(javaExecutable, "javaExecutable").toAbsolutePath().normalize();
    SettingChecks.port("port", port);
    SettingChecks.heapSize(heapSize, "512m or 1g");
    jvmOptions = List.copyOf(jvmOptions);
    jvmOptions.forEach(LocalVarveServerSettings::checkJvmOption);
    Objects.requireNonNull(classpath, "classpath");
    serveArgs = List.copyOf(serveArgs);
    Objects.requireNonNull(secureApi, "secureApi");
  }

  /**
   * The server of {@code varve up}: home {@code <varveHome>/.varve/server}, port 8080, heap 1g, G1,
   * the classpath and {@code java} of the running JVM, no arguments.
   */
  public static LocalVarveServerSettings forDevelopment(Path varveHome) {
    return new LocalVarveServerSettings(
        varveHome.resolve(".varve/server"),
        varveHome,
        8080,
        "1g",
        DEFAULT_JVM_OPTIONS,
        System.getProperty("java.class.path"),
        Path.of(System.getProperty("java.home"), "bin", "java"),
        List.of(),
        Optional.empty());
  }

  /**
   * The classpath of the built command line: {@code cli/target/varve-cli.jar} and {@code
   * cli/target/lib/*}.
   */
  public static String builtClasspath(Path varveHome) {
    Path cli = varveHome.resolve("cli/target");
    return cli.resolve("varve-cli.jar")
        + File.pathSeparator
        + cli.resolve("lib")
        + File.separator
        + "*";
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Settings like others but for what is set: the port and arguments of {@code varve up}, a
   * benchmark's heap and collector, the tests' variants. {@link #build()} checks them as the
   * constructor does.
   */
  public static final class Builder {
    private Path home;
    private Path varveHome;
    private int port;
    private String heapSize;
    private List<String> jvmOptions;
    private String classpath;
    private Path javaExecutable;
    private List<String> serveArgs;
    private Optional<SecureApi> secureApi;

    private Builder(LocalVarveServerSettings s) {
      home = s.home;
      varveHome = s.varveHome;
      port = s.port;
      heapSize = s.heapSize;
      jvmOptions = s.jvmOptions;
      classpath = s.classpath;
      javaExecutable = s.javaExecutable;
      serveArgs = s.serveArgs;
      secureApi = s.secureApi;
    }

    public Builder home(Path value) {
      home = value;
      return this;
    }

    public Builder varveHome(Path value) {
      varveHome = value;
      return this;
    }

    /** The API port. */
    public Builder port(int value) {
      port = value;
      return this;
    }

    /** The heap, like {@code 512m} or {@code 2g}. */
    public Builder heapSize(String value) {
      heapSize = value;
      return this;
    }

    /**
     * Other JVM options instead of {@link LocalVarveServerSettings#DEFAULT_JVM_OPTIONS}, like
     * {@code List.of("-XX:+UseZGC")}: name the collector, or the JVM chooses one by its own rules.
     */
    public Builder jvmOptions(List<String> value) {
      jvmOptions = value;
      return this;
    }

    /**
     * The classpath to run the server from, like {@link
     * LocalVarveServerSettings#builtClasspath(Path)}.
     */
    public Builder classpath(String value) {
      classpath = value;
      return this;
    }

    public Builder javaExecutable(Path value) {
      javaExecutable = value;
      return this;
    }

    /** The arguments of {@code varve serve}. */
    public Builder serveArgs(List<String> value) {
      serveArgs = value;
      return this;
    }

    /**
     * A server that serves its API over TLS only, with a certificate signed by {@code value}'s
     * authority, and asks every call for {@code value}'s token: {@link
     * LocalVarveServerSettings#endpoint()} is then {@code https://}, and the readiness check trusts
     * that authority and sends the token.
     */
    public Builder secureApi(SecureApi value) {
      secureApi = Optional.of(value);
      return this;
    }

    /** The settings, checked as the constructor checks them. */
    public LocalVarveServerSettings build() {
      return new LocalVarveServerSettings(
          home,
          varveHome,
          port,
          heapSize,
          jvmOptions,
          classpath,
          javaExecutable,
          serveArgs,
          secureApi);
    }
  }

  /**
   * Fails unless {@code option} is a JVM option that no other setting makes: the heap is {@link
   * #heapSize()}, the classpath {@link #classpath()}.
   */
  private static void checkJvmOption(String option) {
    Objects.requireNonNull(option, "jvmOptions");
    String expected =
        !option.startsWith("-")
            ? "JVM options, each starting with -"
            : option.startsWith("-Xms") || option.startsWith("-Xmx")
                ? "no heap size: it is heapSize"
                : List.of("-cp", "-classpath", "--class-path").contains(option)
                    ? "no classpath: it is classpath"
                    : null;
    if (expected != null) {
      throw new IllegalArgumentException("jvmOptions: " + option + " (expected: " + expected + ")");
    }
  }

  /**
   * Where the API answers: {@code http://127.0.0.1:<port>} (gRPC, {@code POST /v1/<Rpc>}, {@code
   * /health}), {@code https://} with a {@link #secureApi()}.
   */
  public URI endpoint() {
    return secureApi.isPresent() ? Loopback.httpsEndpoint(port) : Loopback.httpEndpoint(port);
  }

  /** {@code <home>/server.log}: everything the server prints, appended to across restarts. */
  public Path log() {
    return home.resolve("server.log");
  }

  /** {@code <home>/server.pid}: the process id of the running server. */
  public Path pidFile() {
    return home.resolve("server.pid");
  }
}
