package io.varve.bench.binding.varve;

import io.grpc.Status.Code;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.bench.binding.BindingOptions;
import io.varve.bench.binding.SharedConnection;
import io.varve.client.CallSettings;
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
 * VarveOptions}). Creates the namespace when {@code varve.create=true} and checks that it exists
 * otherwise.
 *
 * <p>The benchmark measures the server as each request sees it: every request is bounded by {@code
 * varve.timeoutmillis}, and neither hedged nor retried (a failure is counted as such).
 */
final class VarveConnection implements AutoCloseable {
  private static final SharedConnection<VarveConnection> SHARED = new SharedConnection<>();
  private static final CallSettings SETUP =
      CallSettings.defaults().withDeadline(Duration.ofSeconds(60));

  private final VarveClient client;
  private final String namespace;
  private final long readIntervalSeconds;

  private VarveConnection(VarveClient client, String namespace, long readIntervalSeconds) {
    this.client = client;
    this.namespace = namespace;
    this.readIntervalSeconds = readIntervalSeconds;
  }

  static VarveConnection acquire(Properties properties) throws DBException {
    return SHARED.acquire(() -> open(BindingOptions.read(VarveOptions.ALL, properties)));
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
    return readIntervalSeconds;
  }

  private static VarveConnection open(OptionValues p) throws DBException {
    URI uri = p.get(VarveOptions.URL);
    String namespace = p.get(VarveOptions.NAMESPACE);
    VarveClientBuilder builder =
        VarveClient.builder()
            .endpoint(uri)
            .callSettings(
                CallSettings.defaults()
                    .withDeadline(Duration.ofMillis(p.get(VarveOptions.TIMEOUT)))
                    .withoutHedging())
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
      ensureNamespace(client, namespace, p.get(VarveOptions.CREATE), uri.toString());
      return new VarveConnection(client, namespace, p.get(VarveOptions.READ_INTERVAL));
    } catch (DBException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  private static void ensureNamespace(
      VarveClient client, String namespace, boolean create, String url) throws DBException {
    try {
      VarveClient.join(client.controlPlane().getNamespace(namespace, SETUP));
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
