package io.varve.reshaper.dynamodb;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.core.limit.RateLimiter;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.DynamoDbSettings;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.ConvertedRow;
import io.varve.reshaper.copy.SourceReader;
import io.varve.reshaper.copy.SourceRow;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TableSchema;
import io.varve.reshaper.plan.TableSchema.Column;
import io.varve.reshaper.plan.WorkUnit;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.spark.util.LongAccumulator;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * A DynamoDB source: on the driver, the schema the planner sees ({@link #schema}: the hash key a
 * partition key, the range key a clustering column, and an attribute for each other target column,
 * typed as that column); in a task, one segment of the table's parallel Scan, each item converted
 * by {@link AttributeValues} to the select list's values. An item with an attribute that fills no
 * target column and is not dropped, or a value that does not fit its column, is a bad row.
 */
public final class DynamoDbSource implements SourceReader {
  private static final long serialVersionUID = 1L;
  private final MigrationPlan plan;
  private final JobConfig config;
  private final Set<String> dropped;
  private final double unitsPerSecond;
  private final LongAccumulator throttled;

  /** The threads that read the next page of each segment while its task converts this one. */
  private static final ExecutorService PAGES =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "varve-dynamodb-scan");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param unitsPerSecond this task's share of the read capacity units, 0 = no limit
   * @param throttled counts throttled requests
   */
  public DynamoDbSource(
      MigrationPlan plan, JobConfig config, double unitsPerSecond, LongAccumulator throttled) {
    this.plan = plan;
    this.config = config;
    Set<String> names = new HashSet<>();
    config.drop().forEach(d -> names.add(CqlIdentifier.fromCql(d).asInternal()));
    this.dropped = names;
    this.unitsPerSecond = unitsPerSecond;
    this.throttled = throttled;
  }

  /** The table's description; an absent table is refused under {@code key}. */
  public static TableDescription describe(DynamoDbSettings settings, String key) {
    TableDescription table = DynamoDbTarget.describe(settings, key);
    if (table == null) {
      throw new ConfigException(key, settings.table(), "an existing DynamoDB table");
    }
    return table;
  }

  /**
   * The source as the planner sees it: the hash key (and range key) as the primary key, an
   * attribute for each target column no constant fills (named after {@code renames}), each typed as
   * the target column it fills; a key attribute whose DynamoDB type is not the key type of its
   * target column's type is refused.
   */
  public static TableSchema schema(JobConfig config, TableDescription table, TableSchema target) {
    Map<CqlIdentifier, CqlIdentifier> renames = config.renamed();
    Map<CqlIdentifier, CqlIdentifier> renamedFrom = new HashMap<>();
    renames.forEach((from, to) -> renamedFrom.put(to, from));
    Map<String, ScalarAttributeType> types = new HashMap<>();
    for (AttributeDefinition a : table.attributeDefinitions()) {
      types.put(a.attributeName(), a.attributeType());
    }
    List<Column> hash = new ArrayList<>();
    List<Column> range = new ArrayList<>();
    for (KeySchemaElement k : table.keySchema()) {
      CqlIdentifier name = CqlIdentifier.fromInternal(k.attributeName());
      ScalarAttributeType keyType = types.get(k.attributeName());
      CqlIdentifier to = renames.getOrDefault(name, name);
      DataType type =
          target
              .column(to)
              .map(Column::type)
              .orElse(
                  keyType == ScalarAttributeType.N
                      ? DataTypes.DECIMAL
                      : keyType == ScalarAttributeType.B ? DataTypes.BLOB : DataTypes.TEXT);
      if (target.column(to).isPresent() && AttributeValues.keyType(type) != keyType) {
        throw new ConfigException(
            "source.table",
            table.tableName() + " key attribute " + k.attributeName() + " of type " + keyType,
            "a key whose type fits target column "
                + to.asCql(true)
                + ", "
                + type.asCql(true, true)
                + " (a DynamoDB key of type "
                + AttributeValues.keyType(type)
                + ")");
      }
      (k.keyType() == KeyType.HASH ? hash : range).add(new Column(name, type));
    }
    Set<CqlIdentifier> keys = new HashSet<>();
    hash.forEach(c -> keys.add(c.name()));
    range.forEach(c -> keys.add(c.name()));
    List<Column> others = new ArrayList<>();
    for (Column t : target.columns()) {
      if (config.constants().keySet().stream()
          .anyMatch(c -> CqlIdentifier.fromCql(c).equals(t.name()))) {
        continue;
      }
      CqlIdentifier from = renamedFrom.getOrDefault(t.name(), t.name());
      if (!keys.contains(from)) {
        others.add(new Column(from, t.type()));
      }
    }
    for (String d : config.drop()) {
      CqlIdentifier name = CqlIdentifier.fromCql(d);
      if (!keys.contains(name) && others.stream().noneMatch(c -> c.name().equals(name))) {
        others.add(new Column(name, DataTypes.BLOB));
      }
    }
    return new TableSchema(
        CqlIdentifier.fromInternal("dynamodb"),
        CqlIdentifier.fromInternal(table.tableName()),
        hash,
        range,
        others);
  }

  /** The job's read capacity units per second, 0 = no limit. */
  public static double unitsPerSecond(DynamoDbSettings settings, TableDescription table) {
    return share(
        settings.readThroughput(),
        table.provisionedThroughput() == null
            ? null
            : table.provisionedThroughput().readCapacityUnits(),
        settings.readPercent());
  }

  /**
   * The capacity units per second a job consumes: {@code percent} of those given, else of the
   * table's provisioned ones; 0 (no limit) for an on-demand table without a figure given.
   */
  static double share(Double given, Long provisioned, double percent) {
    double units =
        given != null ? given : provisioned == null || provisioned == 0 ? 0 : provisioned;
    return units * percent;
  }

  @Override
  public UnitRows open(WorkUnit unit) {
    return new Items((ScanSegment) unit);
  }

  /** The items of one segment, page by page. */
  private final class Items implements UnitRows {
    private final ScanSegment segment;
    private final DynamoDbClient client;
    private final Backoff backoff;
    private final RateLimiter capacity;
    private final List<String> names = plan.source().columns();
    private final List<DataType> types = plan.source().types();
    private final List<TypeCodec<Object>> codecs = new ArrayList<>();
    private final Set<String> known = new HashSet<>(names);
    private Iterator<Map<String, AttributeValue>> page;
    private CompletableFuture<ScanResponse> next;

    Items(ScanSegment segment) {
      this.segment = segment;
      DynamoDbSettings settings = config.source().dynamodb();
      this.client = DynamoDbClients.of(settings);
      this.backoff = new Backoff(config.failures().retries(), throttled);
      this.capacity = new RateLimiter(unitsPerSecond);
      types.forEach(t -> codecs.add(CodecRegistry.DEFAULT.codecFor(t)));
      known.addAll(dropped);
      take(scan(null));
    }

    /** The page after {@code lastKey}, read (with its backoff) and paid for in capacity. */
    private ScanResponse scan(Map<String, AttributeValue> lastKey) {
      DynamoDbSettings settings = config.source().dynamodb();
      ScanRequest request =
          ScanRequest.builder()
              .tableName(settings.table())
              .segment(segment.index())
              .totalSegments(segment.total())
              .exclusiveStartKey(lastKey)
              .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
              .build();
      ScanResponse response = backoff.call(() -> client.scan(request));
      if (response.consumedCapacity() != null
          && response.consumedCapacity().capacityUnits() != null) {
        capacity.acquire(response.consumedCapacity().capacityUnits());
      }
      return response;
    }

    /** Takes a page, and asks for the next one at once, so that reading overlaps converting. */
    private void take(ScanResponse response) {
      page = response.items().iterator();
      Map<String, AttributeValue> lastKey =
          response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
              ? response.lastEvaluatedKey()
              : null;
      next = lastKey == null ? null : CompletableFuture.supplyAsync(() -> scan(lastKey), PAGES);
    }

    @Override
    public boolean hasNext() {
      while (!page.hasNext() && next != null) {
        try {
          take(next.join());
        } catch (CompletionException e) {
          throw e.getCause() instanceof RuntimeException r ? r : e;
        }
      }
      return page.hasNext();
    }

    @Override
    public SourceRow next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Map<String, AttributeValue> item = page.next();
      ByteBuffer[] values = new ByteBuffer[names.size()];
      String error = null;
      for (String attribute : item.keySet()) {
        if (!known.contains(attribute)) {
          error =
              "attribute "
                  + attribute
                  + " fills no target column: add the column, a renames entry, or list it under"
                  + " drop";
          break;
        }
      }
      for (int i = 0; i < values.length && error == null; i++) {
        AttributeValue a = item.get(names.get(i));
        try {
          Object value = a == null ? null : AttributeValues.value(types.get(i), a);
          values[i] = value == null ? null : codecs.get(i).encode(value, ProtocolVersion.DEFAULT);
        } catch (RuntimeException e) {
          error = "attribute " + names.get(i) + ": " + e.getMessage();
        }
      }
      return new ConvertedRow(values, error, error == null ? null : describe(item));
    }

    private String describe(Map<String, AttributeValue> item) {
      String text = "DynamoDB item " + item;
      return text.length() <= 2000 ? text : text.substring(0, 2000) + "...";
    }

    @Override
    public void close() {
      // the client is shared by the executor's tasks; a page asked for ahead is left to finish
      if (next != null) {
        next.cancel(false);
      }
    }
  }
}
