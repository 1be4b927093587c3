package io.varve.perf.migrate;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The DynamoDB phases of {@code varve perf migrate}, on DynamoDB Local: the users' case items
 * loaded once (untimed) into a table keyed {@code partnerid} / {@code sk}, then, timed, (h) a plain
 * parallel Scan of it with the AWS SDK (one thread per segment, items counted and dropped) and (i)
 * the reshaper's copy of it into a CQL table, with as many segments.
 */
final class DynamoDbPhases {
  private static final String TABLE = "varve_perf_ids";

  private final DynamoDbClient client;
  private final URI endpoint;
  private final int items;
  private final int segments;

  DynamoDbPhases(URI endpoint, int items, int segments) {
    this.endpoint = endpoint;
    this.items = items;
    this.segments = segments;
    this.client =
        DynamoDbClient.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("perf", "perf")))
            .build();
  }

  /** (Re)creates the table and loads the items, 25 to a batch on 8 threads; returns seconds. */
  double load() throws Exception {
    if (client.listTables().tableNames().contains(TABLE)) {
      client.deleteTable(b -> b.tableName(TABLE));
      client.waiter().waitUntilTableNotExists(b -> b.tableName(TABLE));
    }
    client.createTable(
        b ->
            b.tableName(TABLE)
                .billingMode("PAY_PER_REQUEST")
                .keySchema(
                    k -> k.attributeName("partnerid").keyType("HASH"),
                    k -> k.attributeName("sk").keyType("RANGE"))
                .attributeDefinitions(
                    a -> a.attributeName("partnerid").attributeType("S"),
                    a -> a.attributeName("sk").attributeType("S")));
    client.waiter().waitUntilTableExists(b -> b.tableName(TABLE));
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> sent = new ArrayList<>();
      for (int first = 0; first < items; first += 25) {
        int from = first;
        sent.add(pool.submit(() -> writeBatch(from, Math.min(items, from + 25))));
      }
      for (Future<?> f : sent) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private void writeBatch(int from, int to) {
    List<WriteRequest> requests = new ArrayList<>();
    for (int i = from; i < to; i++) {
      Map<String, AttributeValue> item = new HashMap<>();
      item.put("partnerid", AttributeValue.fromS("partner-" + i / RawIngest.ROWS_PER_PARTITION));
      item.put("sk", AttributeValue.fromS(String.format("%010d", i)));
      item.put("id", AttributeValue.fromS("id-" + i % 5));
      item.put("date", AttributeValue.fromS("2024-01-01T00:00:00.000Z"));
      requests.add(
          WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
    }
    Map<String, List<WriteRequest>> unsent = Map.of(TABLE, requests);
    while (!unsent.isEmpty()) {
      Map<String, List<WriteRequest>> sending = unsent;
      BatchWriteItemResponse r = client.batchWriteItem(b -> b.requestItems(sending));
      unsent = r.hasUnprocessedItems() ? r.unprocessedItems() : Map.of();
    }
  }

  /** A plain parallel Scan, one thread per segment, counting the items; returns seconds. */
  double rawScan() throws Exception {
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(segments);
    long count = 0;
    try {
      List<Future<Long>> scans = new ArrayList<>();
      for (int s = 0; s < segments; s++) {
        int segment = s;
        scans.add(pool.submit(() -> scanSegment(segment)));
      }
      for (Future<Long> f : scans) {
        count += f.get();
      }
    } finally {
      pool.shutdown();
    }
    if (count != items) {
      throw new IllegalStateException("the Scan found " + count + " items of " + items);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private long scanSegment(int segment) {
    long count = 0;
    Map<String, AttributeValue> last = null;
    do {
      ScanRequest request =
          ScanRequest.builder()
              .tableName(TABLE)
              .segment(segment)
              .totalSegments(segments)
              .exclusiveStartKey(last)
              .build();
      ScanResponse page = client.scan(request);
      count += page.items().size();
      last =
          page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
              ? page.lastEvaluatedKey()
              : null;
    } while (last != null);
    return count;
  }

  /** The source section of a reshaper job reading the table with {@code segments} segments. */
  String source() {
    return "source:\n  type: dynamodb\n  table: "
        + TABLE
        + "\n  endpoint:\n    host: http://"
        + endpoint.getHost()
        + "\n    port: "
        + endpoint.getPort()
        + "\n  credentials:\n    accessKey: perf\n    secretKey: perf\n  scanSegments: "
        + segments
        + "\n";
  }

  /** The CQL table the copy writes: the users' case columns and the range key. */
  static String targetDdl() {
    return "(partnerid text, sk text, id text, date text, PRIMARY KEY ((partnerid), sk))";
  }

  int items() {
    return items;
  }
}
