package io.varve.bench.binding.varve;

import io.varve.bench.binding.BindingOptions;
import io.varve.options.Option;
import io.varve.options.Options;
import io.varve.options.Types;
import java.net.URI;
import java.nio.file.Path;

/**
 * The properties of the {@code varve} binding (TimeSeries) and of the {@code varve-kv} binding
 * (KeyValue): the connection's, which both read ({@link #CONNECTION}), and each service's own.
 */
public final class VarveOptions {

  private static final Options.Builder OPTIONS = Options.builder();
  private static final Options.Builder TIME_SERIES_OPTIONS = Options.builder();
  private static final Options.Builder KEY_VALUE_OPTIONS = Options.builder();

  public static final Option<URI> URL =
      OPTIONS
          .option("varve.url", BindingOptions.HTTP_URL)
          .defaultValue(URI.create("http://127.0.0.1:8080"))
          .doc("The server (`https://` for TLS).");
  public static final Option<String> NAMESPACE =
      OPTIONS.option("varve.namespace", BindingOptions.NAME).defaultValue("ycsb").doc("Namespace.");
  public static final Option<Boolean> CREATE =
      OPTIONS
          .option("varve.create", Types.bool())
          .defaultValue(false)
          .doc("`true`: create the namespace with default settings if it does not exist.");
  public static final Option<String> TOKEN =
      OPTIONS
          .option("varve.token", Types.string())
          .secret()
          .doc("Bearer token, when the server requires one.");
  public static final Option<Path> CA_CERT =
      OPTIONS
          .option("varve.cacert", Types.path())
          .doc(
              "PEM file of the certificates to trust for `https://`, such as a private certificate"
                  + " authority's (`.varve/secure/ca.pem` of `./varve up --secure`); absent: the"
                  + " JVM's trusted authorities.");
  public static final Option<Integer> TIMEOUT =
      OPTIONS
          .option("varve.timeoutmillis", Types.integer(1, 3_600_000))
          .defaultValue(10_000)
          .doc("Per-request timeout, in milliseconds.");
  public static final Option<Integer> READ_INTERVAL =
      TIME_SERIES_OPTIONS
          .option("varve.readinterval", Types.integer(1, 366 * 86_400))
          .defaultValue(3600)
          .doc("How far back a read looks, in seconds.");
  public static final Option<Boolean> HEDGING =
      KEY_VALUE_OPTIONS
          .option("varve.hedging", Types.bool())
          .defaultValue(false)
          .doc(
              "`true`: the client hedges a request past its latency objective (the namespace's"
                  + " `slos`, told by the handshake), as an application would; `false`: every"
                  + " request is sent once, so the figures are the server's alone.");

  /** What both bindings read: the server, the namespace, credentials, the timeout. */
  public static final Options CONNECTION = OPTIONS.build();

  /** The {@code varve} binding's properties. */
  public static final Options ALL = Options.of(CONNECTION, TIME_SERIES_OPTIONS.build());

  /** The {@code varve-kv} binding's properties. */
  public static final Options KEY_VALUE = Options.of(CONNECTION, KEY_VALUE_OPTIONS.build());

  private VarveOptions() {}
}
