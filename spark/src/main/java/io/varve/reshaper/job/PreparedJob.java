package io.varve.reshaper.job;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import io.varve.reshaper.cluster.Cluster;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.ConnectionSettings;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.dynamodb.DynamoDbSource;
import io.varve.reshaper.dynamodb.DynamoDbTarget;
import io.varve.reshaper.dynamodb.ScanSegment;
import io.varve.reshaper.parquet.ParquetFile;
import io.varve.reshaper.parquet.ParquetFiles;
import io.varve.reshaper.parquet.ParquetSource;
import io.varve.reshaper.parquet.ParquetTarget;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.Planner;
import io.varve.reshaper.plan.SizeEstimates;
import io.varve.reshaper.plan.TableSchema;
import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.plan.WorkUnit;
import io.varve.reshaper.savepoint.Savepoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * A job checked against both sides and planned, before anything is written: its plan, its units of
 * work (token ranges of a table, files of a Parquet source, segments of a DynamoDB Scan) and those
 * still to do.
 *
 * @param plan the plan
 * @param targetTable the target table, as the driver describes it; null unless it is a CQL table
 * @param ranges every unit of the job
 * @param todo the units no earlier run recorded as done
 * @param savepoint the savepoint of a copy, or null (validation keeps none)
 * @param units what a unit is, in the plural: {@code token ranges}, {@code files}, {@code segments}
 * @param readUnitsPerSecond a DynamoDB source's read capacity units per second for the whole job, 0
 *     = no limit
 * @param writeUnitsPerSecond a DynamoDB target's write capacity units per second, 0 = no limit
 * @param splitNote how {@code source.splitSizeInMB} sized the ranges, or null
 */
record PreparedJob(
    MigrationPlan plan,
    TableMetadata targetTable,
    List<WorkUnit> ranges,
    List<WorkUnit> todo,
    Savepoint savepoint,
    String units,
    double readUnitsPerSecond,
    double writeUnitsPerSecond,
    String splitNote) {

  /**
   * Checks the partitioner and both schemas (a Parquet side's from its files, a DynamoDB side's
   * from its table), prepares the statements, cuts the work into units and, last, creates a
   * DynamoDB target table that {@code createTable} asks for. {@code source} / {@code in} and {@code
   * target} / {@code out} are null for a side that is not a CQL table.
   */
  static PreparedJob prepare(
      JobConfig config,
      ReshapeJob.Kind kind,
      Cluster source,
      Cluster target,
      CqlSession in,
      CqlSession out,
      java.util.function.IntSupplier parallelism) {
    ConnectionSettings from = config.source();
    ConnectionSettings to = config.target();
    if (kind == ReshapeJob.Kind.VALIDATE && !to.isCql()) {
      throw new ConfigException(
          "target.type", to.type(), "cassandra or scylla: validation compares with a table");
    }
    if (!from.isCql() && !to.isCql()) {
      throw new ConfigException(
          "target.type", to.type(), "cassandra or scylla when the source is " + from.type());
    }
    TableMetadata targetTable = to.isCql() ? target.table(out) : null;
    List<WorkUnit> units = new ArrayList<>();
    TableSchema sourceSchema;
    String listing = "";
    double readUnits = 0;
    String unitName;
    String splitNote = null;
    if (from.isParquet()) {
      var conf = ParquetFiles.configuration(from.parquet(), config.spark());
      List<ParquetFile> files = ParquetFiles.list("source.path", from.parquet().path(), conf);
      sourceSchema = ParquetSource.schema(config, files, conf, TableSchema.of(targetTable));
      units.addAll(files);
      StringBuilder listed = new StringBuilder();
      files.forEach(f -> listed.append(f.path()).append(' ').append(f.length()).append('\n'));
      listing = listed.toString();
      unitName = "files";
    } else if (from.isDynamoDb()) {
      TableDescription table = DynamoDbSource.describe(from.dynamodb(), "source.table");
      sourceSchema = DynamoDbSource.schema(config, table, TableSchema.of(targetTable));
      int segments =
          from.dynamodb().scanSegments() > 0
              ? from.dynamodb().scanSegments()
              : Math.max(16, 4 * parallelism.getAsInt());
      for (int i = 0; i < segments; i++) {
        units.add(new ScanSegment(i, segments));
      }
      readUnits = DynamoDbSource.unitsPerSecond(from.dynamodb(), table);
      unitName = "scan segments";
    } else {
      String partitioner =
          in.getMetadata().getTokenMap().map(TokenMap::getPartitionerName).orElse("unknown");
      if (!partitioner.endsWith("Murmur3Partitioner")) {
        throw new ConfigException(
            "source.host",
            from.hosts() + " uses " + partitioner,
            "a cluster with Murmur3Partitioner, the only partitioner whose ring the job splits");
      }
      TableMetadata sourceTable = source.table(in);
      sourceSchema = TableSchema.of(sourceTable);
      int splits =
          from.splitCount() > 0
              ? from.splitCount()
              : Math.max(64, 256 * in.getMetadata().getNodes().size());
      var recorded =
          Savepoint.recordedRanges(Path.of(config.savepoints().path()), config.jobName());
      if (from.splitCount() == 0 && from.splitSizeMb() > 0 && recorded.isPresent()) {
        splits = recorded.getAsInt();
        splitNote = "source.splitSizeInMB: " + splits + " ranges, as the savepoint records";
      } else if (from.splitCount() == 0 && from.splitSizeMb() > 0) {
        long bytes = SizeEstimates.tableBytes(estimates(in, sourceTable));
        splitNote =
            bytes == 0
                ? "source.splitSizeInMB: no size estimate of the table yet, " + splits + " ranges"
                : String.format(
                    java.util.Locale.ROOT,
                    "source.splitSizeInMB %d: table estimated at %,d MiB",
                    from.splitSizeMb(),
                    bytes >> 20);
        if (bytes > 0) {
          splits = SizeEstimates.splits(bytes, from.splitSizeMb());
        }
      }
      units.addAll(TokenRange.split(splits));
      unitName = "token ranges";
    }
    TableSchema targetSchema;
    TableDescription dynamoTarget = null;
    boolean createTable = false;
    if (to.isParquet()) {
      targetSchema = ParquetTarget.schema(config, sourceSchema);
    } else if (to.isDynamoDb()) {
      dynamoTarget = DynamoDbTarget.describe(to.dynamodb());
      createTable = dynamoTarget == null;
      if (createTable) {
        dynamoTarget = DynamoDbTarget.fromSource(config, sourceSchema);
      }
      targetSchema = DynamoDbTarget.schema(config, dynamoTarget, sourceSchema);
    } else {
      targetSchema = TableSchema.of(targetTable);
    }
    boolean compareTimes =
        kind == ReshapeJob.Kind.VALIDATE && config.validation().compareTimestamps();
    MigrationPlan plan = new Planner(config, sourceSchema, targetSchema, compareTimes).plan();
    if (in != null) {
      try {
        in.prepare(plan.source().selectCql());
      } catch (RuntimeException e) {
        String where = from.where();
        throw new ConfigException(
            where != null ? "source.where" : "source",
            where != null ? where : plan.source().selectCql(),
            "a condition the source accepts; it said: " + e.getMessage());
      }
    }
    if (out != null) {
      out.prepare(plan.target().insertCql());
    }
    Savepoint savepoint =
        kind == ReshapeJob.Kind.COPY
            ? Savepoint.open(
                Path.of(config.savepoints().path()),
                config.jobName(),
                listing.isEmpty()
                    ? plan.fingerprint()
                    : Planner.fingerprint(plan.fingerprint(), listing),
                units.size())
            : null;
    if (to.isParquet()) {
      ParquetTarget.checkDirectory(config);
    }
    if (createTable) {
      dynamoTarget = DynamoDbTarget.create(to.dynamodb(), dynamoTarget);
    }
    double writeUnits =
        dynamoTarget == null ? 0 : DynamoDbTarget.unitsPerSecond(to.dynamodb(), dynamoTarget);
    List<WorkUnit> todo =
        units.stream().filter(r -> savepoint == null || !savepoint.isDone(r.index())).toList();
    return new PreparedJob(
        plan,
        targetTable,
        List.copyOf(units),
        todo,
        savepoint,
        unitName,
        readUnits,
        writeUnits,
        splitNote);
  }

  /** The {@code system.size_estimates} rows of a table, from the node the session asks. */
  private static List<SizeEstimates.Range> estimates(CqlSession in, TableMetadata table) {
    List<SizeEstimates.Range> ranges = new ArrayList<>();
    try {
      for (var row :
          in.execute(
              "SELECT range_start, range_end, mean_partition_size, partitions_count"
                  + " FROM system.size_estimates WHERE keyspace_name = ? AND table_name = ?",
              table.getKeyspace().asInternal(),
              table.getName().asInternal())) {
        ranges.add(
            new SizeEstimates.Range(
                Long.parseLong(row.getString(0)),
                Long.parseLong(row.getString(1)),
                row.getLong(2),
                row.getLong(3)));
      }
    } catch (RuntimeException e) {
      return List.of(); // no such table on this database: no estimate
    }
    return ranges;
  }

  /** How many units earlier runs did. */
  int alreadyDone() {
    return ranges.size() - todo.size();
  }
}
