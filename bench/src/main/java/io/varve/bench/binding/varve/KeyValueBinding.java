package io.varve.bench.binding.varve;

import com.google.protobuf.ByteString;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.ScannedItem;
import io.varve.api.kv.v1.Selection;
import io.varve.client.VarveClient;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * YCSB operations as records of Varve's KeyValue API, through the Java client (gRPC): YCSB's model,
 * a record of fields read and written by key, is the KeyValue service's. The record key is the
 * record {@code id}, each field an item whose key is the field's name.
 *
 * <ul>
 *   <li>read: GetItems of the record, {@code match_keys} of the fields asked (every item when YCSB
 *       asks for all), following its pages; NOT_FOUND when the record has no item;
 *   <li>insert and update: PutItems of the fields written, with an idempotency token the client
 *       makes;
 *   <li>delete: DeleteItems of the whole record ({@code match_all});
 *   <li>scan: ScanItems of one of 4096 segments of the token ring, chosen by the start key, up to
 *       {@code recordcount} records of the items it meets. KeyValue records have no order across
 *       ids (their partitions are placed by token), so a scan from a key has no meaning; this reads
 *       as many records of the same size from one place of the ring, which is what a scan costs.
 * </ul>
 *
 * Requests are bounded by {@code varve.timeoutmillis} and never retried; hedged when {@code
 * varve.hedging=true}.
 */
public final class KeyValueBinding extends DB {

  /** Segments a scan's start key picks one of. */
  static final int SCAN_SEGMENTS = 4096;

  private VarveConnection connection;

  @Override
  public void init() throws DBException {
    connection = VarveConnection.acquire(getProperties(), VarveConnection.Service.KEY_VALUE);
  }

  @Override
  public void cleanup() {
    if (connection != null) {
      connection.release();
      connection = null;
    }
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Predicate.Builder predicate = Predicate.newBuilder();
    if (fields == null) {
      predicate.setMatchAll(MatchAll.getDefaultInstance());
    } else {
      MatchKeys.Builder keys = MatchKeys.newBuilder();
      fields.forEach(f -> keys.addKeys(ByteString.copyFromUtf8(f)));
      predicate.setMatchKeys(keys);
    }
    GetItemsRequest request =
        GetItemsRequest.newBuilder()
            .setNamespace(connection.namespace())
            .setId(key)
            .setPredicate(predicate)
            .build();
    try {
      String token = "";
      do {
        GetItemsResponse page =
            VarveClient.join(
                connection
                    .keyValue()
                    .getItems(request.toBuilder().setPageToken(token).build(), connection.calls()));
        for (Item item : page.getItemsList()) {
          result.put(
              item.getKey().toString(StandardCharsets.UTF_8),
              new ByteArrayByteIterator(item.getValue().toByteArray()));
        }
        token = page.getNextPageToken();
      } while (!token.isEmpty());
      return result.isEmpty() ? Status.NOT_FOUND : Status.OK;
    } catch (StatusRuntimeException e) {
      return VarveErrors.status(e);
    }
  }

  @Override
  public Status scan(
      String table,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    ScanItemsRequest request =
        ScanItemsRequest.newBuilder()
            .setNamespace(connection.namespace())
            .setTotalSegments(SCAN_SEGMENTS)
            .setSegment(Math.floorMod(startkey.hashCode(), SCAN_SEGMENTS))
            // pages of 256 KiB: a scan of a few records reads little past them
            .setSelection(Selection.newBuilder().setPageSizeBytes(256 << 10))
            .build();
    Map<String, HashMap<String, ByteIterator>> records = new LinkedHashMap<>();
    try {
      String token = "";
      boolean full = false;
      do {
        ScanItemsResponse page =
            VarveClient.join(
                connection
                    .keyValue()
                    .scanItems(
                        request.toBuilder().setPageToken(token).build(), connection.calls()));
        for (ScannedItem scanned : page.getItemsList()) {
          if (!records.containsKey(scanned.getId()) && records.size() == recordcount) {
            full = true; // the records asked for are complete
            break;
          }
          HashMap<String, ByteIterator> record =
              records.computeIfAbsent(scanned.getId(), id -> new HashMap<>());
          String field = scanned.getItem().getKey().toString(StandardCharsets.UTF_8);
          if (fields == null || fields.contains(field)) {
            record.put(
                field, new ByteArrayByteIterator(scanned.getItem().getValue().toByteArray()));
          }
        }
        token = page.getNextPageToken();
      } while (!full && !token.isEmpty());
      result.addAll(records.values());
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return VarveErrors.status(e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return put(key, values);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return put(key, values);
  }

  @Override
  public Status delete(String table, String key) {
    try {
      VarveClient.join(
          connection
              .keyValue()
              .deleteItems(
                  DeleteItemsRequest.newBuilder()
                      .setNamespace(connection.namespace())
                      .setId(key)
                      .setPredicate(
                          Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()))
                      .build(),
                  connection.calls()));
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return VarveErrors.status(e);
    }
  }

  private Status put(String key, Map<String, ByteIterator> values) {
    PutItemsRequest.Builder request =
        PutItemsRequest.newBuilder().setNamespace(connection.namespace()).setId(key);
    values.forEach(
        (field, value) ->
            request.addItems(
                Item.newBuilder()
                    .setKey(ByteString.copyFromUtf8(field))
                    .setValue(ByteString.copyFrom(value.toArray()))));
    try {
      VarveClient.join(connection.keyValue().putItems(request.build(), connection.calls()));
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return VarveErrors.status(e);
    }
  }
}
