package io.varve.bench.binding.varve;

import io.grpc.Status.Code;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.bench.binding.BindingOptions;
import io.varve.bench.binding.SharedConnection;
import io.varve.client.CallSettings;
import io.varve.client.KeyValueClient;
import io.varve.client.TimeSeriesClient;
import io.varve.client.VarveClient;
import io.varve.client.VarveClientBuilder;
import io.varve.options.OptionValues;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The Varve client all client threads of a run share, from the binding's properties ({@link
 * VarveOptions}). Creates the namespace, of the binding's service, when {@code varve.create=true};
 * otherwise checks that it exists and belongs to that service.
 *
 * <p>The benchmark measures the server as each request sees it: every request is bounded by {@code
 * varve.timeoutmillis}, and neither hedged nor retried (a failure is counted as such).
 */
final class VarveConnection implements AutoCloseable {
  private static final SharedConnection<VarveConnection> SHARED = new SharedConnection<>();
  private static final CallSettings SETUP =
      CallSettings.defaults().withDeadline(Duration.ofSeconds(60));

  /** The service a binding drives: its properties and the namespaces it uses. */
  enum Service {
    TIME_SERIES(VarveOptions.ALL),
    KEY_VALUE(VarveOptions.KEY_VALUE);

    final io.varve.options.Options options;

    Service(io.varve.options.Options options) {
      this.options = options;
    }
  }

  private final VarveClient client;
  private final String namespace;
  private final OptionValues properties;
  private final CallSettings calls;

  private VarveConnection(
      VarveClient client, String namespace, OptionValues properties, CallSettings calls) {
    this.client = client;
    this.namespace = namespace;
    this.properties = properties;
    this.calls = calls;
  }

  static VarveConnection acquire(Properties properties, Service service) throws DBException {
    return SHARED.acquire(() -> open(BindingOptions.read(service.options, properties), service));
  }

  void release() {
    SHARED.release();
  }

  @Override
  public void close() {
    client.close();
  }

  TimeSeriesClient timeSeries() {
    return client.timeSeries();
  }

  String namespace() {
    return namespace;
  }

  long readIntervalSeconds() {
    return properties.get(VarveOptions.READ_INTERVAL);
  }

  KeyValueClient keyValue() {
    return client.keyValue();
  }

  /** Every request's settings: the timeout, and hedging as the properties say. */
  CallSettings calls() {
    return calls;
  }

  private static VarveConnection open(OptionValues p, Service service) throws DBException {
    URI uri = p.get(VarveOptions.URL);
    String namespace = p.get(VarveOptions.NAMESPACE);
    CallSettings calls =
        CallSettings.defaults().withDeadline(Duration.ofMillis(p.get(VarveOptions.TIMEOUT)));
    if (service != Service.KEY_VALUE || !p.get(VarveOptions.HEDGING)) {
      calls = calls.withoutHedging();
    }
    VarveClientBuilder builder =
        VarveClient.builder()
            .endpoint(uri)
            .callSettings(calls)
            .retries(0, Duration.ZERO, Duration.ZERO);
    p.optional(VarveOptions.TOKEN).ifPresent(builder::bearerToken);
    Optional<Path> caCert = p.optional(VarveOptions.CA_CERT);
    if (caCert.isPresent()) {
      if (!"https".equals(uri.getScheme())) {
        // TLS on for an http:// address would contradict what the user wrote.
        throw new DBException("varve.cacert: needs an https:// varve.url, not " + uri);
      }
      try {
        builder.tls(caCert.get());
      } catch (IllegalArgumentException e) {
        throw new DBException("varve.cacert: " + e.getMessage(), e);
      }
    }
    VarveClient client = builder.build();
    try {
      ensureNamespace(client, namespace, service, p.get(VarveOptions.CREATE), uri.toString());
      return new VarveConnection(client, namespace, p, calls);
    } catch (DBException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private static void ensureNamespace(
      VarveClient client, String namespace, Service service, boolean create, String url)
      throws DBException {
    try {
      String found =
          VarveClient.join(client.controlPlane().getNamespace(namespace, SETUP)).getService();
      if (!found.isEmpty() && !found.equals(service.name())) {
        throw new DBException(
            "varve.namespace: "
                + namespace
                + " (expected: a "
                + service
                + " namespace; it is a "
                + found
                + " one)");
      }
      return;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Code.NOT_FOUND) {
        throw new DBException("cannot reach Varve at varve.url=" + url + ": " + e.getStatus(), e);
      }
      if (!create) {
        throw new DBException(
            "namespace " + namespace + " does not exist: create it or set varve.create=true");
      }
    }
    try {
      VarveClient.join(
          client
              .controlPlane()
              .createNamespace(
                  CreateNamespaceRequest.newBuilder()
                      .setNamespace(namespace)
                      .setService(service.name())
                      .addPersistenceConfiguration(
                          PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE"))
                      .build(),
                  SETUP));
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Code.ALREADY_EXISTS) {
        throw new DBException("cannot create namespace " + namespace + ": " + e.getStatus(), e);
      }
    }
  }
}
