package io.varve.client;

import com.linecorp.armeria.client.ClientFactory;
import com.linecorp.armeria.client.ClientFactoryBuilder;
import io.varve.api.common.v1.ClientSignals;
import io.varve.client.internal.Backoff;
import io.varve.client.internal.CallThrottle;
import io.varve.client.internal.Caller;
import io.varve.client.internal.Counters;
import io.varve.client.internal.Endpoints;
import io.varve.client.internal.Handshakes;
import io.varve.client.internal.ValueCompression;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.regex.Pattern;

/**
 * Builds a {@link VarveClient}. Only the endpoints are required; every other setting has the
 * default its method names. Not thread safe; build once.
 */
public final class VarveClientBuilder {

  /** The client's name in handshakes. */
  public static final String CLIENT_NAME = "varve-java";

  /** The default {@link #connectionsPerEndpoint}: two, or the cores of this machine when fewer. */
  public static final int DEFAULT_CONNECTIONS_PER_ENDPOINT =
      Math.min(2, Runtime.getRuntime().availableProcessors());

  /** The default {@link #maxCallsInFlight}: calls started and not ended. */
  public static final int DEFAULT_MAX_CALLS_IN_FLIGHT = 1024;

  /** The default {@link #maxCallsInFlight}: calls waiting for a slot. */
  public static final int DEFAULT_MAX_CALLS_QUEUED = 4096;

  private static final Pattern HOST_PORT = Pattern.compile("\\[?[^\\s/\\[\\]]+\\]?:\\d{1,5}");

  private final List<String> endpoints = new ArrayList<>();
  private boolean tls;
  private Path trustedCertificates;
  private String bearerToken;
  private Duration defaultDeadline = Duration.ofSeconds(10);
  private CallSettings callSettings = CallSettings.defaults();
  private Backoff backoff = new Backoff(Duration.ofMillis(50), Duration.ofSeconds(2), 3);
  private int compressionThreshold = 16 * 1024;
  private Duration handshakeRetry = Duration.ofSeconds(30);
  private Integer connectionsPerEndpoint;
  private int maxCallsInFlight = DEFAULT_MAX_CALLS_IN_FLIGHT;
  private int maxCallsQueued = DEFAULT_MAX_CALLS_QUEUED;
  private ClientFactory factory;
  private ScheduledExecutorService scheduler;
  private IdempotencyTokens tokens;

  VarveClientBuilder() {}

  /** Adds server endpoints, each {@code host:port} (the API port, 8080 by default). */
  public VarveClientBuilder endpoints(String... hostPorts) {
    return endpoints(List.of(hostPorts));
  }

  /** Adds server endpoints, each {@code host:port}. */
  public VarveClientBuilder endpoints(List<String> hostPorts) {
    for (String endpoint : hostPorts) {
      if (endpoint == null || !HOST_PORT.matcher(endpoint).matches()) {
        throw new IllegalArgumentException(
            "endpoint: \"" + endpoint + "\" (expected: host:port, such as 127.0.0.1:8080)");
      }
      endpoints.add(endpoint);
    }
    return this;
  }

  /**
   * Adds a server endpoint given as its URL, the form the {@code varve} commands take: {@code
   * http://host:port}, or {@code https://host:port}, which also turns TLS on (see {@link #tls()}).
   * Without a port: 80 or 443.
   */
  public VarveClientBuilder endpoint(URI url) {
    boolean secure = "https".equals(url.getScheme());
    if (!secure && !"http".equals(url.getScheme()) || url.getHost() == null) {
      throw new IllegalArgumentException(
          "endpoint: \"" + url + "\" (expected: http://host:port or https://host:port)");
    }
    if (secure) {
      tls = true;
    }
    int port = url.getPort() != -1 ? url.getPort() : secure ? 443 : 80;
    return endpoints(url.getHost() + ":" + port);
  }

  /**
   * Speaks TLS to the servers, trusting the JVM's default certificate authorities. Default: off.
   */
  public VarveClientBuilder tls() {
    this.tls = true;
    return this;
  }

  /** Speaks TLS to the servers, trusting the certificates of a PEM file (a CA or self-signed). */
  public VarveClientBuilder tls(Path trustedCertificatesPem) {
    if (!Files.isReadable(trustedCertificatesPem)) {
      throw new IllegalArgumentException(
          "tls: " + trustedCertificatesPem + " (expected: a readable PEM file of certificates)");
    }
    this.tls = true;
    this.trustedCertificates = trustedCertificatesPem;
    return this;
  }

  /** Sends {@code Authorization: Bearer <token>} with every call. Default: no token. */
  public VarveClientBuilder bearerToken(String token) {
    this.bearerToken = Objects.requireNonNull(token, "token");
    return this;
  }

  /** The deadline of a call whose RPC has no latency objective. Default 10 s. */
  public VarveClientBuilder defaultDeadline(Duration deadline) {
    CallSettings.defaults().withDeadline(deadline); // checks it is positive
    this.defaultDeadline = deadline;
    return this;
  }

  /** Overrides, for every call, the namespaces' objectives. Default: none overridden. */
  public VarveClientBuilder callSettings(CallSettings settings) {
    this.callSettings = Objects.requireNonNull(settings, "settings");
    return this;
  }

  /**
   * Retries: at most {@code maxRetries} more requests per call, the wait before the n-th drawn from
   * [0, min(max, initial × 2^(n-1))]. Default 3 retries, 50 ms, 2 s. 0 turns retries off.
   */
  public VarveClientBuilder retries(int maxRetries, Duration initial, Duration max) {
    this.backoff = new Backoff(initial, max, maxRetries);
    return this;
  }

  /**
   * KeyValue values of at least this many bytes are sent zstd-compressed, when the server's
   * handshake allows it and compression saves an eighth. Default 16 KiB; {@code Integer.MAX_VALUE}
   * never compresses.
   */
  public VarveClientBuilder compressionThreshold(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException(
          "compressionThreshold: " + bytes + " (expected: at least 1 byte)");
    }
    this.compressionThreshold = bytes;
    return this;
  }

  /** When to try a namespace's handshake again after it got no answer. Default 30 s. */
  public VarveClientBuilder handshakeRetry(Duration interval) {
    CallSettings.defaults().withDeadline(interval);
    this.handshakeRetry = interval;
    return this;
  }

  /**
   * How many HTTP/2 connections to each endpoint the client's own transport may open, each on its
   * own event loop; calls go to the connection with the fewest in flight. One connection is served
   * by one event loop of the server, one core at most: a client that sends thousands of calls a
   * second needs several to use the server's cores. Default {@link
   * #DEFAULT_CONNECTIONS_PER_ENDPOINT}. Not with {@link #clientFactory} (set it on your factory).
   */
  public VarveClientBuilder connectionsPerEndpoint(int connections) {
    if (connections < 1 || connections > 64) {
      throw new IllegalArgumentException(
          "connectionsPerEndpoint: " + connections + " (expected: 1..64)");
    }
    this.connectionsPerEndpoint = connections;
    return this;
  }

  /**
   * The bound on the calls this client has in flight: at most {@code inFlight} started and not
   * ended, at most {@code queued} more waiting in arrival order for one of them to end; beyond both
   * a call fails at once with RESOURCE_EXHAUSTED, never sent ({@link ClientCounters#throttled}). A
   * waiting call's deadline runs while it waits; one that reaches it fails DEADLINE_EXCEEDED, never
   * sent. A call's hedge and retries take no slot of their own; handshakes take none. Default
   * {@value #DEFAULT_MAX_CALLS_IN_FLIGHT}, {@value #DEFAULT_MAX_CALLS_QUEUED}. Without a bound,
   * calls started faster than the servers answer queue unseen on the connections, where the tail
   * passes its deadline after the servers did its work.
   */
  public VarveClientBuilder maxCallsInFlight(int inFlight, int queued) {
    if (inFlight < 1 || inFlight > 1_000_000) {
      throw new IllegalArgumentException(
          "maxCallsInFlight: " + inFlight + " (expected: 1..1000000 calls in flight)");
    }
    if (queued < 0 || queued > 1_000_000) {
      throw new IllegalArgumentException(
          "maxCallsInFlight: " + queued + " queued (expected: 0..1000000 calls waiting)");
    }
    this.maxCallsInFlight = inFlight;
    this.maxCallsQueued = queued;
    return this;
  }

  /**
   * The transport's event loops and connection pools, owned by the caller: the client does not
   * close it. Default: a factory of the client's own, closed with it. Not with {@link #tls(Path)}
   * (configure the trust on your factory).
   */
  public VarveClientBuilder clientFactory(ClientFactory factory) {
    this.factory = Objects.requireNonNull(factory, "factory");
    return this;
  }

  /**
   * The scheduler of deadlines, hedges, retries and background handshakes, owned by the caller: the
   * client does not shut it down (give it {@code setRemoveOnCancelPolicy(true)}: most of the timers
   * are cancelled). Default: one daemon thread of the client's own.
   */
  public VarveClientBuilder scheduler(ScheduledExecutorService scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return this;
  }

  /** The generator of idempotency tokens. Default: a new one on the system clock. */
  public VarveClientBuilder idempotencyTokens(IdempotencyTokens tokens) {
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    return this;
  }

  /** A client on these settings; its handshakes start with the first call of each namespace. */
  public VarveClient build() {
    if (endpoints.isEmpty()) {
      throw new IllegalArgumentException("endpoints: none (expected: at least one host:port)");
    }
    if (factory != null && connectionsPerEndpoint != null) {
      throw new IllegalArgumentException(
          "connectionsPerEndpoint: "
              + connectionsPerEndpoint
              + " and a caller's ClientFactory (expected: one of them; set"
              + " maxNumEventLoopsPerEndpoint on the factory)");
    }
    if (factory != null && trustedCertificates != null) {
      throw new IllegalArgumentException(
          "tls: a PEM file and a caller's ClientFactory (expected: one of them; set the trust on"
              + " the factory)");
    }
    boolean ownsFactory = factory == null;
    ClientFactory transport = ownsFactory ? ownFactory() : factory;
    boolean ownsScheduler = scheduler == null;
    ScheduledExecutorService timers = ownsScheduler ? ownScheduler() : scheduler;
    Counters counters = new Counters();
    Endpoints channels = new Endpoints(endpoints, tls, transport, ownsFactory, bearerToken);
    Caller caller =
        new Caller(
            channels,
            timers,
            counters,
            backoff,
            defaultDeadline,
            callSettings,
            new CallThrottle(maxCallsInFlight, maxCallsQueued, timers, counters));
    Handshakes handshakes =
        new Handshakes(caller::handshake, signals(), timers, counters, handshakeRetry);
    ClientCalls calls = new ClientCalls(caller, handshakes);
    KeyValueClient keyValue =
        new KeyValueClient(
            calls,
            tokens == null ? new IdempotencyTokens() : tokens,
            new ValueCompression(compressionThreshold));
    return new VarveClient(channels, calls, timers, ownsScheduler, counters, keyValue);
  }

  private static ScheduledExecutorService ownScheduler() {
    ScheduledThreadPoolExecutor timers =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "varve-client-scheduler");
              t.setDaemon(true);
              return t;
            });
    // every call schedules its deadline and hedge; most are cancelled: do not keep them queued
    timers.setRemoveOnCancelPolicy(true);
    return timers;
  }

  private ClientFactory ownFactory() {
    ClientFactoryBuilder builder =
        ClientFactory.builder()
            .maxNumEventLoopsPerEndpoint(
                connectionsPerEndpoint == null
                    ? DEFAULT_CONNECTIONS_PER_ENDPOINT
                    : connectionsPerEndpoint);
    if (trustedCertificates != null) {
      Path pem = trustedCertificates;
      builder.tlsCustomizer(tlsContext -> tlsContext.trustManager(pem.toFile()));
    }
    return builder.build();
  }

  private static ClientSignals signals() {
    String version = VarveClientBuilder.class.getPackage().getImplementationVersion();
    return ClientSignals.newBuilder()
        .setName(CLIENT_NAME)
        .setVersion(version == null ? "dev" : version)
        .addCapabilities("compression:zstd")
        .addCapabilities("partial_returns")
        .addCapabilities("chunking")
        .build();
  }
}
