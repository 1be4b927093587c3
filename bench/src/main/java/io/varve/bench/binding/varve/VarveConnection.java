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
import io.varve.bench.binding.BindingProperties;
import io.varve.bench.binding.SharedConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The gRPC client all client threads of a run share. Creates the namespace when
 * {@code varve.create=true} and checks that it exists otherwise.
 */
final class VarveConnection implements AutoCloseable {
  private static final SharedConnection<VarveConnection> SHARED = new SharedConnection<>();

  private final ClientFactory factory;
  private final TimeSeriesGrpc.TimeSeriesBlockingStub blocking;
  private final String namespace;
  private final long readIntervalSeconds;

  private VarveConnection(ClientFactory factory, TimeSeriesGrpc.TimeSeriesBlockingStub blocking, String namespace,
                          long readIntervalSeconds) {
    this.factory = factory;
    this.blocking = blocking;
    this.namespace = namespace;
    this.readIntervalSeconds = readIntervalSeconds;
  }

  static VarveConnection acquire(Properties properties) throws DBException {
    return SHARED.acquire(() -> open(new BindingProperties(properties)));
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

  private static VarveConnection open(BindingProperties p) throws DBException {
    String url = p.string("varve.url", "http://127.0.0.1:8080");
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new DBException("property varve.url=" + url + " is not valid: expected http://host:port or https://host:port");
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new DBException("property varve.url=" + url + " is not valid: expected http://host:port or https://host:port");
    }
    String namespace = p.string("varve.namespace", "ycsb");
    BindingProperties.checkIdentifier("property varve.namespace", namespace);
    long readInterval = p.integer("varve.readinterval", 3600, 1, 366 * 86400);
    int timeoutMs = p.integer("varve.timeoutmillis", 10_000, 1, 3_600_000);
    String token = p.string("varve.token", null);
    ClientFactory factory = ClientFactory.builder().build();
    var builder = GrpcClients.builder(uri.getScheme() + "://" + uri.getAuthority())
        .factory(factory)
        .responseTimeout(Duration.ofMillis(timeoutMs))
        .maxResponseLength(0);
    if (token != null) {
      builder.auth(AuthToken.ofOAuth2(token));
    }
    try {
      ControlPlaneGrpc.ControlPlaneBlockingStub control = builder.build(ControlPlaneGrpc.ControlPlaneBlockingStub.class);
      TimeSeriesGrpc.TimeSeriesBlockingStub data = builder.build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
      ensureNamespace(control, namespace, p.bool("varve.create", false), url);
      return new VarveConnection(factory, data, namespace, readInterval);
    } catch (DBException | RuntimeException e) {
      factory.close();
      throw e;
    }
  }

  private static void ensureNamespace(ControlPlaneGrpc.ControlPlaneBlockingStub control, String namespace,
                                      boolean create, String url) throws DBException {
    try {
      control.getNamespace(GetNamespaceRequest.newBuilder().setNamespace(namespace).build());
      return;
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Code.NOT_FOUND) {
        throw new DBException("cannot reach Varve at varve.url=" + url + ": " + e.getStatus(), e);
      }
      if (!create) {
        throw new DBException("namespace " + namespace + " does not exist: create it or set varve.create=true");
      }
    }
    try {
      control.createNamespace(CreateNamespaceRequest.newBuilder().setNamespace(namespace)
          .addPersistenceConfiguration(PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE")).build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Code.ALREADY_EXISTS) {
        throw new DBException("cannot create namespace " + namespace + ": " + e.getStatus(), e);
      }
    }
  }
}
