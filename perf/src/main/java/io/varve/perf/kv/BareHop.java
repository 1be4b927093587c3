package io.varve.perf.kv;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.google.protobuf.ByteString;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.core.kv.ValueMetadata;
import io.varve.perf.environment.HopProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The floor of a server hop: the least a gRPC server on the same transport as Varve's (Armeria,
 * HTTP/2, protobuf) and the same CQL driver can cost. It serves PutItems and GetItems only, with no
 * validation, admission, metrics, cache or control plane: a PutItems writes its items as {@link
 * RawItems} does (the same rows, one unlogged batch, the token's time; in a table of its own), a
 * GetItems answers every row of the record's first fetch, on the event loop of the call. It runs in
 * a JVM of its own with the Varve server's heap and collector, so that {@code perf kv} measures
 * three sides of one comparison: the raw client, this hop and Varve. What the hop leaves of a goal
 * is what any server in between can be asked for on the machine; Varve ÷ hop is what Varve itself
 * adds.
 */
final class BareHop extends KeyValueGrpc.KeyValueImplBase {

  private final RawItems rows;

  private BareHop(RawItems rows) {
    this.rows = rows;
  }

  /**
   * The process: {@code <cassandra host:port> <keyspace.table>}. Serves on a free port of
   * 127.0.0.1, announced on standard output; stops when its standard input closes.
   */
  public static void main(String[] args) throws Exception {
    HopProcess.serve(
        args[0],
        session ->
            new BareHop(new RawItems(session, args[1], DefaultConsistencyLevel.LOCAL_QUORUM)));
  }

  @Override
  public void putItems(PutItemsRequest request, StreamObserver<PutItemsResponse> answer) {
    List<ItemData.Item> items = new ArrayList<>(request.getItemsCount());
    for (Item item : request.getItemsList()) {
      items.add(new ItemData.Item(item.getKey().toByteArray(), item.getValue().toByteArray()));
    }
    var token = request.getIdempotencyToken();
    KvApi.Token time =
        new KvApi.Token(
            token.getGenerationTime().getSeconds() * 1_000_000
                + token.getGenerationTime().getNanos() / 1000,
            token.getToken());
    rows.put(request.getId(), items, time)
        .whenComplete(
            (written, error) -> {
              if (error != null) {
                answer.onError(Status.INTERNAL.withDescription(error.toString()).asException());
              } else {
                answer.onNext(PutItemsResponse.newBuilder().setItemCount(items.size()).build());
                answer.onCompleted();
              }
            });
  }

  @Override
  public void getItems(GetItemsRequest request, StreamObserver<GetItemsResponse> answer) {
    rows.readAsync(request.getId())
        .whenComplete(
            (rs, error) -> {
              if (error != null) {
                answer.onError(Status.INTERNAL.withDescription(error.toString()).asException());
                return;
              }
              GetItemsResponse.Builder page = GetItemsResponse.newBuilder();
              for (Row row : rs.currentPage()) {
                page.addItems(
                    Item.newBuilder()
                        .setKey(ByteString.copyFrom(row.getByteBuffer(0)))
                        .setValue(
                            ByteString.copyFrom(ValueMetadata.payload(row.getByteBuffer(1)))));
              }
              answer.onNext(page.build());
              answer.onCompleted();
            });
  }

  /** The hop's process, seen from the benchmark, and a client of it. */
  static final class Process implements AutoCloseable {

    private final HopProcess process;
    private final KeyValueGrpc.KeyValueStub async;
    private final KeyValueGrpc.KeyValueBlockingStub blocking;

    private Process(HopProcess process) {
      this.process = process;
      this.async = GrpcClients.newClient(process.uri(), KeyValueGrpc.KeyValueStub.class);
      this.blocking = GrpcClients.newClient(process.uri(), KeyValueGrpc.KeyValueBlockingStub.class);
    }

    /**
     * Starts the hop in a JVM of this classpath with {@code jvmOptions}, on the Cassandra at {@code
     * cassandra} (host:port), its rows in {@code table}; its standard error goes to {@code log}.
     */
    static Process start(List<String> jvmOptions, String cassandra, String table, Path log)
        throws IOException {
      return new Process(
          HopProcess.start(jvmOptions, BareHop.class, List.of(cassandra, table), log));
    }

    long pid() {
      return process.pid();
    }

    /** A PutItems; fails unless the hop wrote every item. */
    CompletionStage<Void> put(String id, List<ItemData.Item> items, KvApi.Token token) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      async.putItems(
          KvApi.putRequest("hop", id, items, token),
          new StreamObserver<>() {
            @Override
            public void onNext(PutItemsResponse r) {
              if (r.getItemCount() != items.size()) {
                done.completeExceptionally(
                    new IllegalStateException(
                        "the hop wrote " + r.getItemCount() + " of " + items.size() + " items"));
              }
            }

            @Override
            public void onError(Throwable t) {
              done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
              done.complete(null);
            }
          });
      return done;
    }

    /** Every item of record {@code id}, in one answer. */
    GetItemsResponse get(String id) {
      return blocking.getItems(GetItemsRequest.newBuilder().setNamespace("hop").setId(id).build());
    }

    @Override
    public void close() throws Exception {
      process.close();
    }
  }
}
