package io.varve.reshaper.dynamodb;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.core.limit.RateLimiter;
import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.copy.RowWriter;
import io.varve.reshaper.copy.TargetRow;
import io.varve.reshaper.plan.MigrationPlan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes the target rows of one task to a DynamoDB table with BatchWriteItem, {@value #BATCH} items
 * at a time (DynamoDB's limit). Rows are items of their values by {@link AttributeValues}; a row
 * with a value DynamoDB cannot hold, or an item over 400 KB, is a bad row. Two rows with one key in
 * a batch are sent as the later one, as an upsert would leave them. Unprocessed items are sent
 * again after a backoff and counted as throttles; a batch DynamoDB refuses is sent again item by
 * item, so that only the items it refuses are bad rows. The rows, value bytes and capacity units
 * per second of the task are bounded. Not thread-safe.
 */
final class BatchItemWriter implements RowWriter {
  static final int BATCH = 25;
  private final DynamoDbClient client;
  private final String table;
  private final MigrationPlan plan;
  private final List<String> names;
  private final List<DataType> types;
  private final List<TypeCodec<Object>> codecs = new ArrayList<>();
  private final int keyCount;
  private final Backoff backoff;
  private final BadRows bad;
  private final RateLimiter rows;
  private final RateLimiter bytes;
  private final RateLimiter capacity;
  private final Map<List<AttributeValue>, Pending> batch = new LinkedHashMap<>();
  private long written;

  private record Pending(TargetRow row, Map<String, AttributeValue> item, int size) {}

  /** {@code limits}: rows, value bytes and capacity units per second, 0 = none. */
  BatchItemWriter(
      DynamoDbClient client,
      String table,
      MigrationPlan plan,
      List<String> names,
      List<DataType> types,
      int keyCount,
      Backoff backoff,
      BadRows bad,
      double[] limits) {
    this.client = client;
    this.table = table;
    this.plan = plan;
    this.names = names;
    this.types = types;
    types.forEach(t -> codecs.add(CodecRegistry.DEFAULT.codecFor(t)));
    this.keyCount = keyCount;
    this.backoff = backoff;
    this.bad = bad;
    this.rows = new RateLimiter(limits[0]);
    this.bytes = new RateLimiter(limits[1]);
    this.capacity = new RateLimiter(limits[2]);
  }

  @Override
  public void accept(TargetRow row) {
    Map<String, AttributeValue> item = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      byte[] value = row.value(i);
      if (value == null) {
        continue;
      }
      try {
        AttributeValue a =
            AttributeValues.of(
                types.get(i),
                codecs.get(i).decode(ByteBuffer.wrap(value), ProtocolVersion.DEFAULT));
        if (a != null) {
          item.put(names.get(i), a);
        }
      } catch (RuntimeException e) {
        bad.add(
            BadRow.described(row.describe(plan), "column " + names.get(i) + ": " + e.getMessage()));
        return;
      }
    }
    int size = AttributeValues.itemSize(item);
    if (size > AttributeValues.MAX_ITEM_BYTES) {
      bad.add(
          BadRow.described(
              row.describe(plan),
              "an item of "
                  + size
                  + " bytes: DynamoDB items hold at most "
                  + AttributeValues.MAX_ITEM_BYTES));
      return;
    }
    List<AttributeValue> key = new ArrayList<>(keyCount);
    for (int i = 0; i < keyCount; i++) {
      key.add(item.get(names.get(i)));
    }
    batch.remove(key);
    batch.put(key, new Pending(row, item, size));
    if (batch.size() == BATCH) {
      flush();
    }
  }

  private void flush() {
    if (batch.isEmpty()) {
      return;
    }
    long size = 0;
    long units = 0;
    List<WriteRequest> requests = new ArrayList<>(batch.size());
    for (Pending p : batch.values()) {
      size += p.size();
      units += (p.size() + 1023) / 1024;
      requests.add(
          WriteRequest.builder().putRequest(PutRequest.builder().item(p.item()).build()).build());
    }
    rows.acquire(batch.size());
    bytes.acquire(size);
    capacity.acquire(units);
    Map<String, List<WriteRequest>> unsent = Map.of(table, requests);
    int inARow = 0;
    try {
      while (!unsent.isEmpty()) {
        Map<String, List<WriteRequest>> sending = unsent;
        BatchWriteItemResponse response =
            backoff.call(() -> client.batchWriteItem(b -> b.requestItems(sending)));
        unsent =
            response.hasUnprocessedItems() && !response.unprocessedItems().isEmpty()
                ? response.unprocessedItems()
                : Map.of();
        if (!unsent.isEmpty()) {
          backoff.throttle(++inARow);
        }
      }
      written += batch.size();
    } catch (DynamoDbException e) {
      if (Backoff.isThrottle(e)) {
        throw e;
      }
      oneByOne();
    }
    batch.clear();
  }

  /** Sends the batch's items one at a time; those DynamoDB refuses become bad rows. */
  private void oneByOne() {
    for (Pending p : batch.values()) {
      try {
        backoff.call(() -> client.putItem(b -> b.tableName(table).item(p.item())));
        written++;
      } catch (DynamoDbException e) {
        if (Backoff.isThrottle(e)) {
          throw e;
        }
        bad.add(BadRow.described(p.row().describe(plan), BadRow.of("", e).error()));
      }
    }
  }

  @Override
  public void finish() {
    flush();
  }

  @Override
  public long written() {
    return written;
  }

  @Override
  public void close() {
    // the client is shared by the executor's tasks
  }
}
