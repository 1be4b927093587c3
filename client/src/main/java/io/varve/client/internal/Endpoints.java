package io.varve.client.internal;

import com.linecorp.armeria.client.ClientFactory;
import com.linecorp.armeria.client.grpc.GrpcClientBuilder;
import com.linecorp.armeria.client.grpc.GrpcClients;
import com.linecorp.armeria.common.auth.AuthToken;
import io.grpc.Channel;
import io.varve.api.kv.v1.KeyValueGrpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One gRPC channel per server endpoint, built once and shared by every call: Armeria's HTTP/2
 * transport under grpc-java's call API, as the server runs on Armeria. Picks the endpoint of a
 * call's first request by round robin and that of its hedge or retry as the next one. Thread safe.
 */
public final class Endpoints implements AutoCloseable {

  private final List<String> addresses;
  private final List<Channel> channels;
  private final ClientFactory factory;
  private final boolean ownsFactory;
  private final AtomicInteger next = new AtomicInteger();

  /**
   * @param addresses {@code host:port} of each server
   * @param tls whether the servers serve TLS
   * @param factory the transport's event loops and connection pools
   * @param ownsFactory whether {@link #close()} closes {@code factory}
   * @param bearerToken the token sent with every call, or null
   */
  public Endpoints(
      List<String> addresses,
      boolean tls,
      ClientFactory factory,
      boolean ownsFactory,
      String bearerToken) {
    this.addresses = List.copyOf(addresses);
    this.factory = factory;
    this.ownsFactory = ownsFactory;
    List<Channel> built = new ArrayList<>();
    for (String address : addresses) {
      GrpcClientBuilder builder =
          GrpcClients.builder((tls ? "https://" : "http://") + address)
              .factory(factory)
              // every call carries its own deadline (CallOptions), or none when unbounded
              .responseTimeout(Duration.ZERO)
              .maxResponseLength(0);
      if (bearerToken != null) {
        builder.auth(AuthToken.ofOAuth2(bearerToken));
      }
      // the channel is the stub's: one per endpoint, whatever the service called on it
      built.add(builder.build(KeyValueGrpc.KeyValueStub.class).getChannel());
    }
    this.channels = List.copyOf(built);
  }

  /** Endpoints over channels built elsewhere (a test's fake call layer); closing closes nothing. */
  Endpoints(List<String> addresses, List<Channel> channels) {
    if (addresses.size() != channels.size() || channels.isEmpty()) {
      throw new IllegalArgumentException(
          addresses.size() + " addresses for " + channels.size() + " channels");
    }
    this.addresses = List.copyOf(addresses);
    this.channels = List.copyOf(channels);
    this.factory = null;
    this.ownsFactory = false;
  }

  /** How many endpoints there are. */
  public int size() {
    return channels.size();
  }

  /** The index of the endpoint a call sends its first request to. */
  public int pick() {
    return Math.floorMod(next.getAndIncrement(), channels.size());
  }

  /** The endpoint after {@code index}: another one when there are several, else the same. */
  public int other(int index) {
    return (index + 1) % channels.size();
  }

  /** The channel of endpoint {@code index}. */
  public Channel channel(int index) {
    return channels.get(index);
  }

  /** The address of endpoint {@code index}, as given. */
  public String address(int index) {
    return addresses.get(index);
  }

  @Override
  public void close() {
    if (ownsFactory) {
      factory.close();
    }
  }
}
