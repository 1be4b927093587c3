package io.varve.perf.kv;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
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
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The floor of a server hop: the least a gRPC server on the same transport as Varve's (Armeria,
 * HTTP/2, protobuf) and the same CQL driver can cost. It serves PutItems and GetItems only, with no
 * validation, admission, metrics, cache or control plane: a PutItems writes its items as {@link
 * RawItems} does (the same rows, one unlogged batch, the token's time; in a table of its own), a
 * GetItems answers every row of the record's first fetch, on the event loop of the call. A large
 * value goes as raw rows of a record each: a PutItems whose items set {@code chunk} writes item k
 * as the one row of record {@code <id>-<k>}, all at once; a GetItems with page token {@code
 * <from>:<to>} reads those rows at once and answers their values as one item. It runs in a JVM of
 * its own with the Varve server's heap and collector, so that {@code perf kv} measures three sides
 * of one comparison: the raw client, this hop and Varve. What the hop leaves of a goal is what any
 * server in between can be asked for on the machine; Varve ÷ hop is what Varve itself adds.
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
    if (request.getItemsCount() > 0 && request.getItems(0).hasChunk()) {
      putRows(request, answer);
      return;
    }
    List<ItemData.Item> items = new ArrayList<>(request.getItemsCount());
    for (Item item : request.getItemsList()) {
      items.add(new ItemData.Item(item.getKey().toByteArray(), item.getValue().toByteArray()));
    }
    rows.put(request.getId(), items, time(request))
        .whenComplete((written, error) -> answer(answer, error, items.size()));
  }

  /**
   * The rows of a large value, as a client of the raw rows would send them through a hop: each item
   * (its {@code chunk} set) is record {@code <id>-<chunk>}'s one row, all written at once.
   */
  private void putRows(PutItemsRequest request, StreamObserver<PutItemsResponse> answer) {
    KvApi.Token time = time(request);
    CompletableFuture<?>[] written = new CompletableFuture<?>[request.getItemsCount()];
    for (int i = 0; i < written.length; i++) {
      Item item = request.getItems(i);
      written[i] =
          rows.putOne(
                  request.getId() + "-" + item.getChunk(),
                  item.getKey().toByteArray(),
                  item.getValue().asReadOnlyByteBuffer(),
                  time)
              .toCompletableFuture();
    }
    CompletableFuture.allOf(written)
        .whenComplete((all, error) -> answer(answer, error, written.length));
  }

  private static KvApi.Token time(PutItemsRequest request) {
    var token = request.getIdempotencyToken();
    return new KvApi.Token(
        token.getGenerationTime().getSeconds() * 1_000_000
            + token.getGenerationTime().getNanos() / 1000,
        token.getToken());
  }

  private static void answer(StreamObserver<PutItemsResponse> answer, Throwable error, int items) {
    if (error != null) {
      fail(answer, error);
    } else {
      answer.onNext(PutItemsResponse.newBuilder().setItemCount(items).build());
      answer.onCompleted();
    }
  }

  /** Answers a call whose rows failed: INTERNAL, with the failure. */
  private static void fail(StreamObserver<?> answer, Throwable error) {
    answer.onError(Status.INTERNAL.withDescription(error.toString()).asException());
  }

  @Override
  public void getItems(GetItemsRequest request, StreamObserver<GetItemsResponse> answer) {
    if (!request.getPageToken().isEmpty()) {
      getRows(request, answer);
      return;
    }
    rows.readAsync(request.getId())
        .whenComplete(
            (rs, error) -> {
              if (error != null) {
                fail(answer, error);
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

  /**
   * Rows {@code <id>-<from>} to {@code <id>-<to - 1>} of a large value, page token {@code
   * <from>:<to>}, read at once and answered as one item, their values put together without a copy.
   */
  private void getRows(GetItemsRequest request, StreamObserver<GetItemsResponse> answer) {
    String[] range = request.getPageToken().split(":");
    int from = Integer.parseInt(range[0]);
    int to = Integer.parseInt(range[1]);
    List<CompletableFuture<ByteBuffer>> read = new ArrayList<>(to - from);
    for (int r = from; r < to; r++) {
      read.add(rows.readValueAsync(request.getId() + "-" + r).toCompletableFuture());
    }
    CompletableFuture.allOf(read.toArray(CompletableFuture[]::new))
        .whenComplete(
            (all, error) -> {
              if (error != null) {
                fail(answer, error);
                return;
              }
              List<ByteString> values = new ArrayList<>(read.size());
              read.forEach(r -> values.add(UnsafeByteOperations.unsafeWrap(r.join())));
              answer.onNext(
                  GetItemsResponse.newBuilder()
                      .addItems(
                          Item.newBuilder().setChunk(from).setValue(ByteString.copyFrom(values)))
                      .build());
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
      return put(KvApi.putRequest("hop", id, items, token), items.size());
    }

    private CompletionStage<Void> put(PutItemsRequest request, int items) {
      return this.<PutItemsResponse>answer(o -> async.putItems(request, o))
          .thenAccept(
              r -> {
                if (r.getItemCount() != items) {
                  throw new IllegalStateException(
                      "the hop wrote " + r.getItemCount() + " of " + items + " items");
                }
              });
    }

    /** The answer of one unary call of the async stub, made by {@code call}. */
    private <T> CompletableFuture<T> answer(Consumer<StreamObserver<T>> call) {
      CompletableFuture<T> done = new CompletableFuture<>();
      call.accept(
          new StreamObserver<>() {
            @Override
            public void onNext(T answer) {
              done.complete(answer);
            }

            @Override
            public void onError(Throwable t) {
              done.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {}
          });
      return done;
    }

    /**
     * A large value as the raw rows {@code <id>-0} and on of {@code rowBytes} each, {@code
     * rowsPerRequest} rows a PutItems, one request after the other.
     */
    CompletionStage<Void> putRows(
        String id, byte[] key, byte[] value, int rowBytes, int rowsPerRequest, KvApi.Token token) {
      PutItemsRequest empty = KvApi.putRequest("hop", id, List.of(), token);
      int rows = (value.length + rowBytes - 1) / rowBytes;
      CompletionStage<Void> sent = CompletableFuture.completedFuture(null);
      for (int first = 0; first < rows; first += rowsPerRequest) {
        PutItemsRequest.Builder request = empty.toBuilder();
        for (int r = first; r < Math.min(rows, first + rowsPerRequest); r++) {
          int from = r * rowBytes;
          request.addItems(
              Item.newBuilder()
                  .setKey(UnsafeByteOperations.unsafeWrap(key))
                  .setChunk(r)
                  .setValue(
                      UnsafeByteOperations.unsafeWrap(
                          value, from, Math.min(rowBytes, value.length - from))));
        }
        int count = request.getItemsCount();
        sent = sent.thenCompose(v -> put(request.build(), count));
      }
      return sent;
    }

    /**
     * The large value of {@code rows} raw rows {@code <id>-0} and on, {@code rowsPerRequest} rows a
     * GetItems, one request after the other.
     */
    CompletionStage<ByteString> getRows(String id, int rows, int rowsPerRequest) {
      List<ByteString> parts = new ArrayList<>();
      CompletionStage<Void> read = CompletableFuture.completedFuture(null);
      for (int first = 0; first < rows; first += rowsPerRequest) {
        GetItemsRequest request =
            GetItemsRequest.newBuilder()
                .setNamespace("hop")
                .setId(id)
                .setPageToken(first + ":" + Math.min(rows, first + rowsPerRequest))
                .build();
        read =
            read.thenCompose(v -> get(request))
                .thenAccept(r -> parts.add(r.getItems(0).getValue()));
      }
      return read.thenApply(v -> ByteString.copyFrom(parts));
    }

    private CompletionStage<GetItemsResponse> get(GetItemsRequest request) {
      return answer(o -> async.getItems(request, o));
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
