package io.varve.server.config;

import io.varve.options.Option;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.Section;
import io.varve.options.Types;
import io.varve.server.admission.AdmissionSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/** The options of the {@code server} section: bind address, TLS, authentication, admission. */
public final class ServerOptions {

  private static final Options.Builder OPTIONS = Options.builder();

  public static final Section SERVER =
      OPTIONS.section(
          "server", "The API endpoint: address, port, TLS, authentication and admission control.");
  public static final Option<String> HOST =
      OPTIONS
          .option("server.host", Types.string())
          .defaultValue("127.0.0.1")
          .doc(
              "Address the server binds (a host name or IP). The default accepts connections from this machine"
                  + " only; `0.0.0.0` binds every interface.");
  public static final Option<Integer> PORT =
      OPTIONS
          .option("server.port", Types.integer(0, 65535))
          .defaultValue(8080)
          .doc(
              "The one port serving gRPC, HTTP/JSON (`POST /v1/<RpcName>`), the API page `/docs/`, `/health` and"
                  + " `/metrics`. `0` picks a free port (the start-up log line names it).");

  public static final Section TLS =
      OPTIONS.optionalSection(
          "server.tls",
          "Server TLS from PEM files. When `certificateChain` is set, the port serves HTTPS and gRPC over TLS only;"
              + " `privateKey` is then required.");
  public static final Option<Path> CERTIFICATE_CHAIN =
      OPTIONS
          .option("server.tls.certificateChain", Types.path())
          .example("/etc/varve/tls/server-chain.pem")
          .doc(
              "PEM file: the server certificate, followed by its intermediate certificates. Setting it enables TLS.");
  public static final Option<Path> PRIVATE_KEY =
      OPTIONS
          .option("server.tls.privateKey", Types.path())
          .example("/etc/varve/tls/server-key.pem")
          .doc(
              "PEM file: the certificate's private key, unencrypted PKCS#8 (`-----BEGIN PRIVATE KEY-----`).");

  public static final Section AUTH =
      OPTIONS.section(
          "server.auth",
          "Authentication of API calls and per-token permissions. With neither `bearerTokens` nor `tokens`, no"
              + " call needs a token.");
  public static final Option<List<String>> BEARER_TOKENS =
      OPTIONS
          .option("server.auth.bearerTokens", Types.strings())
          .defaultValue(List.of())
          .secret()
          .doc(
              "Tokens with full access: every RPC on every namespace, `/metrics` and `/docs/`. When any token is"
                  + " configured, every gRPC and `/v1/` call must carry `Authorization: Bearer <token>`.");
  public static final Option<List<OptionValues>> TOKENS =
      OPTIONS
          .option("server.auth.tokens", Types.mappings(TokenOptions.ALL))
          .defaultValue(List.of())
          .doc(
              "Tokens limited to namespaces and permissions: each entry has a `name`, one of `token`, `tokenFile`"
                  + " and `tokenEnv`, `permissions` and `namespaces` ([per-token permissions](#per-token-permissions)).");
  public static final Option<Boolean> AUTHENTICATE_METRICS =
      OPTIONS
          .option("server.auth.authenticateMetrics", Types.bool())
          .defaultValue(false)
          .doc(
              "Whether `GET /metrics` needs a token with the `metrics` permission (or a `bearerTokens` token)."
                  + " `true` needs a token configured.");
  public static final Option<Boolean> AUTHENTICATE_DOCS =
      OPTIONS
          .option("server.auth.authenticateDocs", Types.bool())
          .defaultValue(false)
          .doc(
              "Whether the API page `/docs/` needs a token with the `docs` permission (or a `bearerTokens` token);"
                  + " browsers prompt for it as the password of basic authentication. `true` needs a token configured.");

  public static final Section ADMISSION =
      OPTIONS.section(
          "server.admission",
          "Memory budgets of API requests in flight ([admission control](#admission-control)). A request that does"
              + " not fit is refused at once with `RESOURCE_EXHAUSTED` (HTTP 429); nothing waits in a queue.");
  public static final Option<OptionalLong> WRITE_BYTES =
      OPTIONS
          .option(
              "server.admission.writeBytes", new ByteBudget(AdmissionSettings.MIN_BYTES, 1L << 40))
          .defaultValue(OptionalLong.empty())
          .defaultDoc("`auto`: three eighths of the JVM's maximum heap")
          .doc(
              "Estimated heap that write requests in flight (`WriteEventRecordsSync`, `WriteEventRecords`, `PutItems`, `MutateItems`,"
                  + " `DeleteItems`)"
                  + " may hold while they are decoded and answered.");
  public static final Option<OptionalLong> READ_BYTES =
      OPTIONS
          .option(
              "server.admission.readBytes", new ByteBudget(AdmissionSettings.MIN_BYTES, 1L << 40))
          .defaultValue(OptionalLong.empty())
          .defaultDoc("`auto`: an eighth of the JVM's maximum heap")
          .doc(
              "The same for every other request (reads, search, aggregate, the control plane), apart from writes so"
                  + " that a write overload never delays a read.");
  public static final Option<OptionalLong> BUFFERED_WRITE_BYTES =
      OPTIONS
          .option(
              "server.admission.bufferedWriteBytes",
              new ByteBudget(AdmissionSettings.MIN_BYTES, 1L << 40))
          .defaultValue(OptionalLong.empty())
          .defaultDoc("`auto`: an eighth of the JVM's maximum heap")
          .doc(
              "Estimated heap that the fire-and-forget (`WriteEventRecords`) queues of all namespaces may hold"
                  + " together, with the batches being written from them. Each namespace's queue is also bounded by"
                  + " its `queueBuffering.bufferCapacity`; a request that does not fit either is refused whole with"
                  + " `429 RESOURCE_EXHAUSTED`, while this buffer is full before its body is read"
                  + " ([limits.md](limits.md)).");
  public static final Option<Duration> BUFFERED_WRITE_RETRY =
      OPTIONS
          .option("server.admission.bufferedWriteRetry", Types.duration())
          .defaultValue(AdmissionSettings.DEFAULT_BUFFERED_WRITE_RETRY)
          .doc(
              "How long after it was queued a fire-and-forget event that Cassandra did not acknowledge (a timeout,"
                  + " too few replicas alive) is still written again; the namespace's queue pauses 250 ms before the"
                  + " first retry, doubling up to 4 s. The event's bytes stay held meanwhile, so an outage longer"
                  + " than the buffers can hold refuses writers with `429 RESOURCE_EXHAUSTED`. Past the window, or on"
                  + " any other storage error, the event is dropped, logged and counted"
                  + " (`varve_buffer_dropped_events_total`).");
  public static final Option<Duration> MAX_WRITE_QUEUE_DELAY =
      OPTIONS
          .option("server.admission.maxWriteQueueDelay", Types.duration())
          .defaultValue(AdmissionSettings.DEFAULT_MAX_WRITE_QUEUE_DELAY)
          .doc(
              "How long admitted writes may have waited for their turn, to be decoded (write bodies, and other bodies"
                  + " over 64 KiB, take turns on one thread per core) or, for durable writes, to Cassandra (behind"
                  + " `cassandra.maxInFlightWrites` and `cassandra.maxInFlightWriteBytes`; a fire-and-forget"
                  + " `WriteEventRecords` is bounded by its buffer instead), before further writes are refused"
                  + " with `429 RESOURCE_EXHAUSTED` (metric reason `backlog`). The budgets bound memory; this bounds an"
                  + " admitted write's latency when the cluster is slower than the writers: a write admitted at the bound"
                  + " completes in about twice this plus its own time in Cassandra. Reads are never refused for it.");

  public static final Section SHUTDOWN =
      OPTIONS.section(
          "server.shutdown",
          "How the server stops (on `SIGTERM`): it keeps serving for a quiet period, then stops"
              + " taking requests, lets those in flight finish, writes what its fire-and-forget queues hold and"
              + " closes its sessions.");
  public static final Option<Duration> SHUTDOWN_QUIET_PERIOD =
      OPTIONS
          .option("server.shutdown.quietPeriod", Types.duration())
          .defaultValue(ServerSettings.Shutdown.DEFAULT.quietPeriod())
          .doc(
              "The server stops once no request arrived for this long, so that a load balancer that still sends it"
                  + " requests after the signal is not answered with refused connections. `1ms` stops at once.");
  public static final Option<Duration> SHUTDOWN_TIMEOUT =
      OPTIONS
          .option("server.shutdown.timeout", Types.duration())
          .defaultValue(ServerSettings.Shutdown.DEFAULT.timeout())
          .doc(
              "The longest the server waits for the quiet period and for requests in flight; requests still"
                  + " running then are aborted. At least `quietPeriod`.");

  public static final Options ALL = OPTIONS.build();

  private ServerOptions() {}
}
