package io.varve.bench.binding.varve;

import com.linecorp.armeria.client.ClientFactory;
import com.linecorp.armeria.client.grpc.GrpcClients;
import com.linecorp.armeria.common.auth.AuthToken;
import io.grpc.Status.Code;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.bench.binding.BindingOptions;
import io.varve.bench.binding.SharedConnection;
import io.varve.options.OptionValues;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The gRPC client all client threads of a run share, from the binding's properties ({@link
 * VarveOptions}). Creates the namespace when {@code varve.create=true} and checks that it exists
 * otherwise.
 */
final class VarveConnection implements AutoCloseable {
  private static final SharedConnection<VarveConnection> SHARED = new SharedConnection<>();

  private final ClientFactory factory;
  private final TimeSeriesGrpc.TimeSeriesBlockingStub blocking;
  private final String namespace;
  private final long readIntervalSeconds;

  private VarveConnection(
      ClientFactory factory,
      TimeSeriesGrpc.TimeSeriesBlockingStub blocking,
      String namespace,
      long readIntervalSeconds) {
    this.factory = factory;
    this.blocking = blocking;
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
    factory.close();
  }

  TimeSeriesGrpc.TimeSeriesBlockingStub blocking() {
    return blocking;
  }

  String namespace() {
    return namespace;
  }

  long readIntervalSeconds() {
    return readIntervalSeconds;
  }

  private static VarveConnection open(OptionValues p) throws DBException {
    URI uri = p.get(VarveOptions.URL);
    String url = uri.toString();
    String namespace = p.get(VarveOptions.NAMESPACE);
    long readInterval = p.get(VarveOptions.READ_INTERVAL);
    int timeoutMs = p.get(VarveOptions.TIMEOUT);
    String token = p.optional(VarveOptions.TOKEN).orElse(null);
    ClientFactory factory = ClientFactory.builder().build();
    var builder =
        GrpcClients.builder(uri.getScheme() + "://" + uri.getAuthority())
            .factory(factory)
            .responseTimeout(Duration.ofMillis(timeoutMs))
            .maxResponseLength(0);
    if (token != null) {
      builder.auth(AuthToken.ofOAuth2(token));
    }
    try {
      ControlPlaneGrpc.ControlPlaneBlockingStub control =
          builder.build(ControlPlaneGrpc.ControlPlaneBlockingStub.class);
      TimeSeriesGrpc.TimeSeriesBlockingStub data =
          builder.build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
      ensureNamespace(control, namespace, p.get(VarveOptions.CREATE), url);
      return new VarveConnection(factory, data, namespace, readInterval);
    } catch (DBException | RuntimeException e) {
      factory.close();
      throw e;
    }
  }

  private static void ensureNamespace(
      ControlPlaneGrpc.ControlPlaneBlockingStub control,
      String namespace,
      boolean create,
      String url)
      throws DBException {
    try {
      control.getNamespace(GetNamespaceRequest.newBuilder().setNamespace(namespace).build());
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
      control.createNamespace(
          CreateNamespaceRequest.newBuilder()
              .setNamespace(namespace)
              .addPersistenceConfiguration(
                  PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE"))
              .build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Code.ALREADY_EXISTS) {
        throw new DBException("cannot create namespace " + namespace + ": " + e.getStatus(), e);
      }
    }
  }
}
