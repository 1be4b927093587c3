package io.varve.bench.binding.dynamodb;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The capacity side of the {@code dynamodb} binding, in the SDK's request pipeline:
 *
 * <ul>
 *   <li>every item request asks DynamoDB for the units it consumed ({@code ReturnConsumedCapacity
 *       TOTAL}), which are added up per kind (read: GetItem, Scan; write: PutItem, UpdateItem,
 *       DeleteItem), so that a result shows what the workload cost in units and per second;
 *   <li>with {@code dynamodb.modelCapacity}, a token bucket per table and kind stands for the
 *       provisioned capacity that DynamoDB Local does not enforce: it refills at the provisioned
 *       units per second, banks at most {@code dynamodb.burstSeconds} of them, and is debited the
 *       units each answer reports. An attempt made while its bucket is in debt fails before it is
 *       sent with the ProvisionedThroughputExceededException DynamoDB would answer, inside the
 *       SDK's retry loop: the SDK backs off and retries it as it would a real throttle, and it is
 *       counted as a throttled attempt.
 * </ul>
 */
final class CapacityModel implements ExecutionInterceptor {

  private static final LongAdder READ_MILLIUNITS = new LongAdder();
  private static final LongAdder WRITE_MILLIUNITS = new LongAdder();
  private static final LongAdder MODELLED_THROTTLES = new LongAdder();

  private final DynamoDbSettings settings;
  private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

  CapacityModel(DynamoDbSettings settings) {
    this.settings = settings;
  }

  /** Read units consumed by every client of this JVM since it started, in thousandths. */
  static long readMilliunits() {
    return READ_MILLIUNITS.sum();
  }

  /** Write units consumed, in thousandths. */
  static long writeMilliunits() {
    return WRITE_MILLIUNITS.sum();
  }

  /** Attempts the model refused (each also counted as a throttled attempt). */
  static long modelledThrottles() {
    return MODELLED_THROTTLES.sum();
  }

  @Override
  public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    if (request instanceof GetItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }
    if (request instanceof ScanRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }
    if (request instanceof PutItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }
    if (request instanceof UpdateItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }
    if (request instanceof DeleteItemRequest r) {
      return r.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build();
    }
    return request;
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    Optional<Bucket> bucket = bucket(context.request());
    if (bucket.isPresent() && bucket.get().inDebt()) {
      MODELLED_THROTTLES.increment();
      ThrottledAttempts.countModelled();
      String message =
          "The level of configured provisioned throughput for the table was exceeded (modelled by"
              + " the client: dynamodb.modelCapacity)";
      throw ProvisionedThroughputExceededException.builder()
          .message(message)
          .statusCode(400)
          .awsErrorDetails(
              AwsErrorDetails.builder()
                  .errorCode("ProvisionedThroughputExceededException")
                  .errorMessage(message)
                  .serviceName("DynamoDb")
                  .build())
          .build();
    }
  }

  @Override
  public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    SdkResponse response = context.response();
    Optional<ConsumedCapacity> consumed =
        response.getValueForField("ConsumedCapacity", ConsumedCapacity.class);
    if (consumed.isEmpty() || consumed.get().capacityUnits() == null) {
      return;
    }
    double units = consumed.get().capacityUnits();
    long milli = Math.round(units * 1000);
    if (isRead(context.request())) {
      READ_MILLIUNITS.add(milli);
    } else {
      WRITE_MILLIUNITS.add(milli);
    }
    bucket(context.request()).ifPresent(b -> b.debit(units));
  }

  private Optional<Bucket> bucket(SdkRequest request) {
    if (!settings.modelCapacity()) {
      return Optional.empty();
    }
    Optional<String> table = request.getValueForField("TableName", String.class);
    if (table.isEmpty() || !isItemRequest(request)) {
      return Optional.empty();
    }
    boolean read = isRead(request);
    int perSecond =
        read ? settings.readCapacityUnits().getAsInt() : settings.writeCapacityUnits().getAsInt();
    return Optional.of(
        buckets.computeIfAbsent(
            (read ? "read:" : "write:") + table.get(),
            k -> new Bucket(perSecond, settings.burstSeconds())));
  }

  private static boolean isItemRequest(SdkRequest r) {
    return r instanceof GetItemRequest
        || r instanceof ScanRequest
        || r instanceof PutItemRequest
        || r instanceof UpdateItemRequest
        || r instanceof DeleteItemRequest;
  }

  private static boolean isRead(SdkRequest r) {
    return r instanceof GetItemRequest || r instanceof ScanRequest;
  }

  /**
   * Units per second, banked up to {@code burstSeconds} of them; starts full. Debited after each
   * answer, so it may go below zero, as DynamoDB admits a request before it knows its size.
   */
  static final class Bucket {
    private final double perSecond;
    private final double most;
    private double units;
    private long lastNanos;

    Bucket(double perSecond, int burstSeconds) {
      this.perSecond = perSecond;
      this.most = perSecond * burstSeconds;
      this.units = most;
      this.lastNanos = System.nanoTime();
    }

    synchronized boolean inDebt() {
      refill();
      return units <= 0;
    }

    synchronized void debit(double consumed) {
      refill();
      units -= consumed;
    }

    private void refill() {
      long now = System.nanoTime();
      units = Math.min(most, units + (now - lastNanos) / 1e9 * perSecond);
      lastNanos = now;
    }
  }
}
