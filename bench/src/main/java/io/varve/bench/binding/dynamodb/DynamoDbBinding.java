package io.varve.bench.binding.dynamodb;

import io.varve.bench.cost.CapacityUnits;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.LongAdder;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * YCSB's {@code dynamodb} binding: YCSB's operations on one DynamoDB table through the AWS SDK v2
 * synchronous client, against DynamoDB, DynamoDB Local or ScyllaDB's Alternator ({@code
 * dynamodb.endpoint}). docs/bench-dynamodb.md lists the properties.
 *
 * <p>Each item holds YCSB's key as a string attribute ({@code dynamodb.primaryKey}, default y_id)
 * and each field as a binary (B) attribute with the field's exact bytes; reads also accept string
 * (S) fields, as YCSB's own binding wrote them.
 *
 * <p>Outcomes, after the SDK's retries: {@link Status#OK}; {@link Status#NOT_FOUND} when a read
 * finds no item; {@link #THROTTLED} when the service still throttled the last attempt; {@link
 * #TABLE_NOT_FOUND}; {@link #CLIENT_ERROR} when no answer came (connection, timeout); {@link
 * Status#ERROR} for any other error. {@link #throttledAttempts()} counts throttled attempts,
 * retried ones included.
 *
 * <p>All instances of a JVM share one client, built from the first instance's properties. Each
 * instance is used by one YCSB thread.
 */
public class DynamoDbBinding extends DB implements io.varve.bench.engine.CounterSource {

  /** The service throttled the operation's last attempt (ProvisionedThroughputExceeded...). */
  public static final Status THROTTLED =
      new Status("THROTTLED", "The service throttled the request, after the SDK's retries.");

  /** The table does not exist. */
  public static final Status TABLE_NOT_FOUND =
      new Status("TABLE_NOT_FOUND", "The table does not exist.");

  /** No answer from the service: connection refused or reset, timeout. */
  public static final Status CLIENT_ERROR =
      new Status("CLIENT_ERROR", "The request got no answer from the service.");

  private DynamoDbSettings settings;
  private DynamoDbClient client;
  private ItemCodec codec;

  /**
   * Attempts answered with a throttling error by any client of this JVM since it started, whether
   * the SDK retried them or not: at least the number of {@link #THROTTLED} outcomes, more when
   * retries hid some throttles.
   */
  public static long throttledAttempts() {
    return ThrottledAttempts.count();
  }

  /**
   * The throttled attempts (retried or not), the capacity units consumed and the operations that
   * consumed them, and the attempts the capacity model refused, of this process: for the run's
   * result file (the names {@code bench cost} reads are {@link CapacityUnits}'s).
   */
  @Override
  public Map<String, Long> counters() {
    return Map.of(
        "throttled_attempts",
        throttledAttempts(),
        "modelled_throttles",
        CapacityModel.modelledThrottles(),
        CapacityUnits.READ_MILLIUNITS,
        CapacityModel.readMilliunits(),
        CapacityUnits.WRITE_MILLIUNITS,
        CapacityModel.writeMilliunits(),
        CapacityUnits.OPERATIONS,
        ANSWERED.sum());
  }

  /** Operations of this process that DynamoDB answered (their units are counted). */
  private static final LongAdder ANSWERED = new LongAdder();

  @Override
  public void init() throws DBException {
    settings = DynamoDbSettings.from(getProperties());
    codec = new ItemCodec(settings);
    client = SharedClient.acquire(settings);
    if (settings.create()) {
      try {
        TableCreator.ensureTable(client, settings);
      } catch (DBException e) {
        cleanup();
        throw e;
      }
    }
  }

  @Override
  public void cleanup() {
    if (client != null) {
      client = null;
      SharedClient.release();
    }
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    GetItemRequest.Builder request =
        GetItemRequest.builder()
            .tableName(table)
            .key(codec.key(key))
            .consistentRead(settings.consistentReads());
    codec.project(fields, request::projectionExpression, request::expressionAttributeNames);
    try {
      GetItemResponse response = client.getItem(request.build());
      ANSWERED.increment();
      if (!response.hasItem() || response.item().isEmpty()) {
        return Status.NOT_FOUND;
      }
      codec.fields(response.item(), result);
      return Status.OK;
    } catch (SdkException e) {
      return status(e);
    }
  }

  /**
   * YCSB's scan, as YCSB's own DynamoDB binding did it: the item of {@code startkey}, then a Scan
   * from {@code startkey} ({@code ExclusiveStartKey}) until {@code recordcount} items or the end of
   * the table. DynamoDB orders a Scan by hash, not by key, so these are the items that follow
   * {@code startkey} in the table's hash order, not the keys after it.
   */
  @Override
  public Status scan(
      String table,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      Map<String, AttributeValue> start = codec.key(startkey);
      GetItemRequest.Builder first =
          GetItemRequest.builder()
              .tableName(table)
              .key(start)
              .consistentRead(settings.consistentReads());
      codec.project(fields, first::projectionExpression, first::expressionAttributeNames);
      GetItemResponse item = client.getItem(first.build());
      if (item.hasItem() && !item.item().isEmpty()) {
        result.add(codec.fields(item.item(), new HashMap<>()));
      }
      while (result.size() < recordcount && start != null && !start.isEmpty()) {
        ScanRequest.Builder request =
            ScanRequest.builder()
                .tableName(table)
                .exclusiveStartKey(start)
                .limit(recordcount - result.size())
                .consistentRead(settings.consistentReads());
        codec.project(fields, request::projectionExpression, request::expressionAttributeNames);
        ScanResponse page = client.scan(request.build());
        page.items().forEach(found -> result.add(codec.fields(found, new HashMap<>())));
        start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
      }
      ANSWERED.increment();
      return Status.OK;
    } catch (SdkException e) {
      return status(e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    if (values.isEmpty()) {
      return Status.OK;
    }
    Map<String, String> names = new HashMap<>();
    Map<String, AttributeValue> newValues = new HashMap<>();
    StringBuilder set = new StringBuilder("SET ");
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      int i = names.size();
      names.put("#f" + i, field.getKey());
      newValues.put(":v" + i, ItemCodec.value(field.getValue()));
      set.append(i == 0 ? "" : ", ").append("#f").append(i).append(" = :v").append(i);
    }
    try {
      client.updateItem(
          b ->
              b.tableName(table)
                  .key(codec.key(key))
                  .updateExpression(set.toString())
                  .expressionAttributeNames(names)
                  .expressionAttributeValues(newValues));
      ANSWERED.increment();
      return Status.OK;
    } catch (SdkException e) {
      return status(e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      client.putItem(b -> b.tableName(table).item(codec.item(key, values)));
      ANSWERED.increment();
      return Status.OK;
    } catch (SdkException e) {
      return status(e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      client.deleteItem(b -> b.tableName(table).key(codec.key(key)));
      ANSWERED.increment();
      return Status.OK;
    } catch (SdkException e) {
      return status(e);
    }
  }

  private static Status status(SdkException e) {
    if (e instanceof ResourceNotFoundException) {
      return TABLE_NOT_FOUND;
    }
    if (e instanceof SdkServiceException service && service.isThrottlingException()) {
      return THROTTLED;
    }
    if (e instanceof AwsServiceException service) {
      return new Status(
          "ERROR",
          service.awsErrorDetails().errorCode() + ": " + service.awsErrorDetails().errorMessage());
    }
    return e instanceof SdkClientException ? CLIENT_ERROR : Status.ERROR;
  }
}
