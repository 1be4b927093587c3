package io.varve.reshaper.dynamodb;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.DynamoDbSettings;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.RowWriter;
import io.varve.reshaper.copy.TargetSide;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TableSchema;
import io.varve.reshaper.plan.TableSchema.Column;
import io.varve.reshaper.plan.WorkUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.util.LongAccumulator;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * A DynamoDB target: on the driver, the table (described, or created from the source's key when
 * {@code createTable} asks and it is absent, once the job is planned) and the schema the planner
 * sees ({@link #schema}: its hash and range keys, then every other source column after {@code
 * renames} and {@code drop}, their types kept); in a task, a {@link BatchItemWriter}.
 */
public final class DynamoDbTarget implements TargetSide {
  private static final long serialVersionUID = 1L;
  private static final String KEY = "target.table";
  private final MigrationPlan plan;
  private final JobConfig config;
  private final double unitsPerSecond;
  private final LongAccumulator throttled;

  /**
   * @param unitsPerSecond this task's share of the write capacity units, 0 = no limit
   * @param throttled counts throttled requests
   */
  public DynamoDbTarget(
      MigrationPlan plan, JobConfig config, double unitsPerSecond, LongAccumulator throttled) {
    this.plan = plan;
    this.config = config;
    this.unitsPerSecond = unitsPerSecond;
    this.throttled = throttled;
  }

  /** The target table's description, or null when it does not exist. */
  public static TableDescription describe(DynamoDbSettings settings) {
    return describe(settings, KEY);
  }

  /** A table's description, or null when it does not exist; a failure is refused under key. */
  static TableDescription describe(DynamoDbSettings settings, String key) {
    try {
      return new Backoff(3, null)
          .call(
              () -> DynamoDbClients.of(settings).describeTable(b -> b.tableName(settings.table())))
          .table();
    } catch (ResourceNotFoundException e) {
      return null;
    } catch (RuntimeException e) {
      throw new ConfigException(
          key + ": " + settings.table() + " cannot be described: " + e.getMessage(), e);
    }
  }

  /**
   * The description of the table {@code createTable} makes from {@code source}'s key, not created
   * yet: its hash key the source's partition key, its range key the source's clustering column (a
   * source with more key columns than that, or one of a type no DynamoDB key has, is refused).
   */
  public static TableDescription fromSource(JobConfig config, TableSchema source) {
    DynamoDbSettings settings = config.target().dynamodb();
    if (!settings.createTable()) {
      throw new ConfigException(
          KEY, settings.table(), "an existing DynamoDB table, or createTable: true");
    }
    Map<CqlIdentifier, CqlIdentifier> renames = config.renamed();
    if (source.partitionKey().size() != 1 || source.clustering().size() > 1) {
      throw new ConfigException(
          "target.createTable",
          true,
          "a source whose key is one partition-key column and at most one clustering column"
              + " (a DynamoDB hash key and range key), but it is ("
              + TableSchema.names(source.partitionKey())
              + ") ("
              + TableSchema.names(source.clustering())
              + "): create the table yourself");
    }
    List<KeySchemaElement> keys = new ArrayList<>();
    List<AttributeDefinition> definitions = new ArrayList<>();
    for (Column c : source.primaryKey()) {
      ScalarAttributeType type = AttributeValues.keyType(c.type());
      if (type == null) {
        throw new ConfigException(
            "target.createTable",
            true,
            "key columns of types a DynamoDB key can have, but "
                + c.cql()
                + " is "
                + c.type().asCql(true, true));
      }
      String name = renames.getOrDefault(c.name(), c.name()).asInternal();
      keys.add(
          KeySchemaElement.builder()
              .attributeName(name)
              .keyType(source.partitionKey().contains(c) ? KeyType.HASH : KeyType.RANGE)
              .build());
      definitions.add(
          AttributeDefinition.builder().attributeName(name).attributeType(type).build());
    }
    return TableDescription.builder()
        .tableName(settings.table())
        .keySchema(keys)
        .attributeDefinitions(definitions)
        .build();
  }

  /** Creates the table {@link #fromSource} described and waits until it exists. */
  public static TableDescription create(DynamoDbSettings settings, TableDescription table) {
    DynamoDbClient client = DynamoDbClients.of(settings);
    CreateTableRequest.Builder create =
        CreateTableRequest.builder()
            .tableName(settings.table())
            .keySchema(table.keySchema())
            .attributeDefinitions(table.attributeDefinitions())
            .billingMode(BillingMode.fromValue(settings.billingMode()));
    if (settings.billingMode().equals("PROVISIONED")) {
      long units =
          settings.writeThroughput() == null
              ? 5
              : Math.max(1, settings.writeThroughput().longValue());
      create.provisionedThroughput(b -> b.readCapacityUnits(units).writeCapacityUnits(units));
    }
    client.createTable(create.build());
    return client
        .waiter()
        .waitUntilTableExists(b -> b.tableName(settings.table()))
        .matched()
        .response()
        .orElseThrow(() -> new IllegalStateException("table " + settings.table() + " not created"))
        .table();
  }

  /**
   * The target as the planner sees it: the table's hash key as the partition key and its range key
   * as the clustering column, typed as the source columns that fill them (a key attribute no source
   * column fills, or filled by a column whose type is not of its key type, is refused), then every
   * other source column after {@code renames} and {@code drop} (one of a type DynamoDB cannot hold
   * is refused). {@code constants} and {@code timeSlice} are refused.
   */
  public static TableSchema schema(JobConfig config, TableDescription table, TableSchema source) {
    if (!config.constants().isEmpty()) {
      String name = config.constants().keySet().iterator().next();
      throw new ConfigException(
          "constants." + name,
          config.constants().get(name),
          "no constants: a DynamoDB target's attributes are the source's, and a constant has no"
              + " type");
    }
    if (config.timeSlice() != null) {
      throw new ConfigException(
          "timeSlice", "{...}", "no timeSlice section: a DynamoDB target is not a slice table");
    }
    Map<CqlIdentifier, CqlIdentifier> renames = config.renamed();
    Set<CqlIdentifier> dropped = config.dropped();
    Map<CqlIdentifier, Column> filled = new HashMap<>();
    for (Column c : source.columns()) {
      if (!dropped.contains(c.name())) {
        filled.put(renames.getOrDefault(c.name(), c.name()), c);
      }
    }
    Map<String, ScalarAttributeType> types = new HashMap<>();
    table.attributeDefinitions().forEach(a -> types.put(a.attributeName(), a.attributeType()));
    List<Column> hash = new ArrayList<>();
    List<Column> range = new ArrayList<>();
    Set<CqlIdentifier> keys = new HashSet<>();
    for (KeySchemaElement k : table.keySchema()) {
      CqlIdentifier name = CqlIdentifier.fromInternal(k.attributeName());
      Column from = filled.get(name);
      if (from == null) {
        throw new ConfigException(
            KEY,
            table.tableName() + " key attribute " + k.attributeName(),
            "a key attribute some source column fills (after renames): "
                + TableSchema.names(source.columns()));
      }
      ScalarAttributeType expected = types.get(k.attributeName());
      if (AttributeValues.keyType(from.type()) != expected) {
        throw new ConfigException(
            KEY,
            table.tableName() + " key attribute " + k.attributeName() + " of type " + expected,
            "a key that source column "
                + from.cql()
                + ", "
                + from.type().asCql(true, true)
                + ", can fill (it makes a DynamoDB key of type "
                + AttributeValues.keyType(from.type())
                + ")");
      }
      keys.add(name);
      (k.keyType() == KeyType.HASH ? hash : range).add(new Column(name, from.type()));
    }
    List<Column> others = new ArrayList<>();
    for (Column c : source.columns()) {
      CqlIdentifier to = renames.getOrDefault(c.name(), c.name());
      if (dropped.contains(c.name()) || keys.contains(to)) {
        continue;
      }
      String why = AttributeValues.unmappable(c.type());
      if (why != null) {
        throw new ConfigException(
            "source column " + c.cql(),
            c.type().asCql(true, true),
            "a type a DynamoDB attribute can hold (" + why + "): list it under drop");
      }
      others.add(new Column(to, c.type()));
    }
    return new TableSchema(
        CqlIdentifier.fromInternal("dynamodb"),
        CqlIdentifier.fromInternal(table.tableName()),
        hash,
        range,
        others);
  }

  /** The job's write capacity units per second, 0 = no limit. */
  public static double unitsPerSecond(DynamoDbSettings settings, TableDescription table) {
    return DynamoDbSource.share(
        settings.writeThroughput(),
        table.provisionedThroughput() == null
            ? null
            : table.provisionedThroughput().writeCapacityUnits(),
        settings.writePercent());
  }

  @Override
  public RowWriter open(WorkUnit unit, BadRows bad, double rowsPerSecond, double bytesPerSecond) {
    return new BatchItemWriter(
        DynamoDbClients.of(config.target().dynamodb()),
        config.target().dynamodb().table(),
        plan,
        plan.target().internalNames(),
        plan.target().types(),
        plan.target().primaryKeyCount(),
        new Backoff(config.failures().retries(), throttled),
        bad,
        new double[] {rowsPerSecond, bytesPerSecond, unitsPerSecond});
  }
}
