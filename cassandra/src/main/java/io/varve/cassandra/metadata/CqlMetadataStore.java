package io.varve.cassandra.metadata;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.cassandra.session.SchemaChanges;
import io.varve.core.error.VarveException;
import io.varve.core.partitioning.SliceHistogram;
import io.varve.core.partitioning.SliceLifecycle;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.NamespaceRecord;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The control plane's tables in the metadata keyspace:
 *
 * <ul>
 *   <li>{@code namespaces(namespace PK, config, version, create_time, update_time, deleting_since)}
 *   <li>{@code time_slices(namespace, start_time DESC, end_time, table_name,
 *       seconds_per_time_bucket, event_buckets, status, status_time, compaction, compaction_time,
 *       histogram, pending_table, pending_seconds_per_time_bucket, pending_event_buckets,
 *       pending_since, previous_table, previous_drop_after)}: the columns after {@code status} came
 *       later, added by {@link #open} to a table that lacks them
 *   <li>{@code settings(name PK, value)}: deployment-wide values such as the page-token key
 * </ul>
 *
 * Creation and updates of namespaces are lightweight transactions, so concurrent servers agree.
 * Failures of the store are classified by {@link CqlFailures}.
 */
public final class CqlMetadataStore implements MetadataStore {

  private final CqlSession session;
  private final PreparedStatement insertNamespace;
  private final PreparedStatement updateNamespace;
  private final PreparedStatement deleteNamespace;
  private final PreparedStatement deleteSlice;
  private final PreparedStatement updateSliceCompaction;
  private final PreparedStatement updateSliceHistogram;
  private final PreparedStatement updateSlicePending;
  private final PreparedStatement swapSlice;
  private final PreparedStatement forgetPrevious;
  private final PreparedStatement selectNamespace;
  private final PreparedStatement selectNamespaces;
  private final PreparedStatement selectSlices;
  private final PreparedStatement insertSlice;
  private final PreparedStatement updateSliceStatus;
  private final PreparedStatement insertSetting;
  private final PreparedStatement selectSetting;

  private final Duration timeout;

  private CqlMetadataStore(CqlSession session, String keyspace, Duration timeout) {
    this.session = session;
    this.timeout = timeout;
    String ks = CqlIdentifier.fromInternal(keyspace).asCql(true);
    insertNamespace =
        prepare(
            "INSERT INTO "
                + ks
                + ".namespaces (namespace, config, version, create_time, update_time)"
                + " VALUES (?, ?, ?, ?, ?) IF NOT EXISTS");
    updateNamespace =
        prepare(
            "UPDATE "
                + ks
                + ".namespaces SET config = ?, version = ?, update_time = ?, deleting_since = ?"
                + " WHERE namespace = ? IF version = ?");
    deleteNamespace =
        prepare("DELETE FROM " + ks + ".namespaces WHERE namespace = ? IF version = ?");
    updateSliceCompaction =
        prepare(
            "UPDATE "
                + ks
                + ".time_slices SET compaction = ?, compaction_time = ?"
                + " WHERE namespace = ? AND start_time = ? IF compaction = ?");
    updateSliceHistogram =
        prepare(
            "UPDATE "
                + ks
                + ".time_slices SET histogram = ?"
                + " WHERE namespace = ? AND start_time = ? IF table_name = ?");
    updateSlicePending =
        prepare(
            "UPDATE "
                + ks
                + ".time_slices SET pending_table = ?, pending_seconds_per_time_bucket = ?,"
                + " pending_event_buckets = ?, pending_since = ?"
                + " WHERE namespace = ? AND start_time = ? IF table_name = ? AND pending_table = ?");
    swapSlice =
        prepare(
            "UPDATE "
                + ks
                + ".time_slices SET table_name = ?, seconds_per_time_bucket = ?, event_buckets = ?,"
                + " previous_table = ?, previous_drop_after = ?, pending_table = null,"
                + " pending_seconds_per_time_bucket = null, pending_event_buckets = null,"
                + " pending_since = null, compaction = null, compaction_time = null,"
                + " histogram = null"
                + " WHERE namespace = ? AND start_time = ? IF table_name = ? AND pending_table = ?");
    forgetPrevious =
        prepare(
            "UPDATE "
                + ks
                + ".time_slices SET previous_table = null, previous_drop_after = null"
                + " WHERE namespace = ? AND start_time = ? IF previous_table = ?");
    deleteSlice =
        prepare("DELETE FROM " + ks + ".time_slices WHERE namespace = ? AND start_time = ?");
    selectNamespace =
        prepare(
            "SELECT namespace, config, version, create_time, update_time, deleting_since FROM "
                + ks
                + ".namespaces WHERE namespace = ?");
    selectNamespaces =
        prepare(
            "SELECT namespace, config, version, create_time, update_time, deleting_since FROM "
                + ks
                + ".namespaces");
    selectSlices =
        prepare(
            "SELECT start_time, end_time, table_name, seconds_per_time_bucket, event_buckets, status,"
                + " status_time, compaction, compaction_time, histogram, pending_table,"
                + " pending_seconds_per_time_bucket, pending_event_buckets, pending_since,"
                + " previous_table, previous_drop_after FROM "
                + ks
                + ".time_slices WHERE namespace = ?");
    insertSlice =
        prepare(
            "INSERT INTO "
                + ks
                + ".time_slices (namespace, start_time, end_time, table_name,"
                + " seconds_per_time_bucket, event_buckets, status, status_time, compaction,"
                + " compaction_time, histogram, previous_table, previous_drop_after)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    updateSliceStatus =
        prepare(
            "UPDATE "
                + ks
                + ".time_slices SET status = ?, status_time = ? WHERE namespace = ? AND start_time = ?"
                + " IF status = ?");
    insertSetting =
        prepare("INSERT INTO " + ks + ".settings (name, value) VALUES (?, ?) IF NOT EXISTS");
    selectSetting = prepare("SELECT value FROM " + ks + ".settings WHERE name = ?");
  }

  /**
   * Creates the metadata keyspace and tables if missing, then the store. {@code keyspace} must be a
   * validated identifier.
   *
   * @throws io.varve.core.error.StorageException when the store fails
   */
  public static CqlMetadataStore open(
      CqlSession session, String keyspace, CqlSliceTables tables, Duration timeout) {
    try {
      tables.createKeyspaceIfMissing(keyspace).toCompletableFuture().join();
      String ks = CqlIdentifier.fromInternal(keyspace).asCql(true);
      Consumer<String> ddl =
          cql -> SchemaChanges.applyNow(session, SimpleStatement.newInstance(cql), timeout);
      // a new control plane gets every column at once; one of an earlier version gains the
      // columns it lacks, one ALTER each (each schema change takes a few hundred milliseconds)
      ddl.accept(
          "CREATE TABLE IF NOT EXISTS "
              + ks
              + ".namespaces (namespace text PRIMARY KEY, config text,"
              + " version bigint, create_time timestamp, update_time timestamp"
              + columnsOf(NAMESPACE_COLUMNS_ADDED)
              + ")");
      ddl.accept(
          "CREATE TABLE IF NOT EXISTS "
              + ks
              + ".time_slices (namespace text, start_time timestamp,"
              + " end_time timestamp, table_name text, seconds_per_time_bucket bigint, event_buckets int, status text"
              + columnsOf(SLICE_COLUMNS_ADDED)
              + ", PRIMARY KEY (namespace, start_time)) WITH CLUSTERING ORDER BY (start_time DESC)");
      addMissingColumns(session, keyspace, "time_slices", SLICE_COLUMNS_ADDED, timeout);
      addMissingColumns(session, keyspace, "namespaces", NAMESPACE_COLUMNS_ADDED, timeout);
      ddl.accept(
          "CREATE TABLE IF NOT EXISTS " + ks + ".settings (name text PRIMARY KEY, value blob)");
      return new CqlMetadataStore(session, keyspace, timeout);
    } catch (RuntimeException e) {
      throw CqlFailures.classify(e);
    }
  }

  @Override
  public CompletionStage<Void> create(NamespaceRecord r) {
    return CqlFailures.translated(
        session
            .executeAsync(
                insertNamespace
                    .bind(
                        r.namespace(), r.configJson(), r.version(), r.createTime(), r.updateTime())
                    .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(
                rs -> {
                  if (!rs.wasApplied()) {
                    throw VarveException.alreadyExists(
                        "namespace '" + r.namespace() + "' already exists");
                  }
                  return null;
                }));
  }

  @Override
  public CompletionStage<Boolean> update(NamespaceRecord r) {
    return CqlFailures.translated(
        session
            .executeAsync(
                updateNamespace
                    .bind(
                        r.configJson(),
                        r.version(),
                        r.updateTime(),
                        r.deletingSince().orElse(null),
                        r.namespace(),
                        r.version() - 1)
                    .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(AsyncResultSet::wasApplied));
  }

  @Override
  public CompletionStage<Boolean> remove(NamespaceRecord r) {
    return CqlFailures.translated(
        session
            .executeAsync(
                deleteNamespace
                    .bind(r.namespace(), r.version())
                    .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(AsyncResultSet::wasApplied));
  }

  @Override
  public CompletionStage<Void> removeSlice(TimeSlice s) {
    return CqlFailures.translated(
        session.executeAsync(deleteSlice.bind(s.namespace(), s.start())).thenApply(rs -> null));
  }

  @Override
  public CompletionStage<Optional<NamespaceRecord>> get(String namespace) {
    return CqlFailures.translated(
        session
            .executeAsync(
                selectNamespace.bind(namespace).setConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(rs -> Optional.ofNullable(rs.one()).map(CqlMetadataStore::namespace)));
  }

  @Override
  public CompletionStage<List<NamespaceRecord>> list() {
    List<NamespaceRecord> all = new ArrayList<>();
    return CqlFailures.translated(
        collect(session.executeAsync(selectNamespaces.bind()), row -> all.add(namespace(row)))
            .thenApply(
                v -> {
                  all.sort(Comparator.comparing(NamespaceRecord::namespace));
                  return all;
                }));
  }

  @Override
  public CompletionStage<List<TimeSlice>> slices(String namespace) {
    List<TimeSlice> slices = new ArrayList<>();
    return CqlFailures.translated(
        collect(
                session.executeAsync(selectSlices.bind(namespace)),
                row ->
                    slices.add(
                        new TimeSlice(
                            namespace,
                            row.getInstant(0),
                            row.getInstant(1),
                            row.getString(2),
                            row.getLong(3),
                            row.getInt(4),
                            SliceStatus.valueOf(row.getString(5)),
                            new SliceLifecycle(
                                Optional.ofNullable(row.getInstant(6)),
                                Optional.ofNullable(row.getString(7)),
                                Optional.ofNullable(row.getInstant(8)),
                                Optional.ofNullable(row.getString(9))
                                    .flatMap(SliceHistogram::parse),
                                Optional.ofNullable(row.getString(10))
                                    .map(
                                        table ->
                                            new SliceLifecycle.PendingTable(
                                                table,
                                                row.getLong(11),
                                                row.getInt(12),
                                                row.getInstant(13))),
                                Optional.ofNullable(row.getString(14))
                                    .map(
                                        table ->
                                            new SliceLifecycle.PreviousTable(
                                                table, row.getInstant(15)))))))
            .thenApply(v -> slices));
  }

  @Override
  public CompletionStage<Void> putSlice(TimeSlice s) {
    return CqlFailures.translated(
        session
            .executeAsync(
                insertSlice.bind(
                    s.namespace(),
                    s.start(),
                    s.end(),
                    s.table(),
                    s.secondsPerTimeBucket(),
                    s.eventBuckets(),
                    s.status().name(),
                    s.lifecycle().statusTime().orElse(null),
                    s.lifecycle().compaction().orElse(null),
                    s.lifecycle().compactionTime().orElse(null),
                    s.lifecycle().histogram().map(SliceHistogram::format).orElse(null),
                    s.lifecycle().previous().map(SliceLifecycle.PreviousTable::table).orElse(null),
                    s.lifecycle()
                        .previous()
                        .map(SliceLifecycle.PreviousTable::dropAfter)
                        .orElse(null)))
            .thenApply(rs -> null));
  }

  @Override
  public CompletionStage<Boolean> setSliceStatus(TimeSlice slice, SliceStatus status, Instant at) {
    return CqlFailures.translated(
        session
            .executeAsync(
                updateSliceStatus
                    .bind(
                        status.name(), at, slice.namespace(), slice.start(), slice.status().name())
                    .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(AsyncResultSet::wasApplied));
  }

  @Override
  public CompletionStage<Boolean> setSliceCompaction(TimeSlice slice, String strategy, Instant at) {
    return CqlFailures.translated(
        session
            .executeAsync(
                updateSliceCompaction
                    .bind(
                        strategy,
                        at,
                        slice.namespace(),
                        slice.start(),
                        slice.lifecycle().compaction().orElse(null))
                    .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(AsyncResultSet::wasApplied));
  }

  @Override
  public CompletionStage<Boolean> setSliceHistogram(TimeSlice slice, SliceHistogram histogram) {
    return CqlFailures.translated(
        session
            .executeAsync(
                updateSliceHistogram
                    .bind(histogram.format(), slice.namespace(), slice.start(), slice.table())
                    .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(AsyncResultSet::wasApplied));
  }

  @Override
  public CompletionStage<Boolean> setSlicePending(
      TimeSlice slice, Optional<SliceLifecycle.PendingTable> pending) {
    return lwt(
        updateSlicePending.bind(
            pending.map(SliceLifecycle.PendingTable::table).orElse(null),
            pending.map(SliceLifecycle.PendingTable::secondsPerTimeBucket).orElse(null),
            pending.map(SliceLifecycle.PendingTable::eventBuckets).orElse(null),
            pending.map(SliceLifecycle.PendingTable::since).orElse(null),
            slice.namespace(),
            slice.start(),
            slice.table(),
            slice.lifecycle().pending().map(SliceLifecycle.PendingTable::table).orElse(null)));
  }

  @Override
  public CompletionStage<Boolean> swapSliceTable(TimeSlice slice, TimeSlice swapped) {
    SliceLifecycle.PreviousTable previous = swapped.lifecycle().previous().orElseThrow();
    return lwt(
        swapSlice.bind(
            swapped.table(),
            swapped.secondsPerTimeBucket(),
            swapped.eventBuckets(),
            previous.table(),
            previous.dropAfter(),
            slice.namespace(),
            slice.start(),
            slice.table(),
            swapped.table()));
  }

  @Override
  public CompletionStage<Boolean> forgetPreviousTable(TimeSlice slice) {
    return lwt(
        forgetPrevious.bind(
            slice.namespace(), slice.start(), slice.lifecycle().previous().orElseThrow().table()));
  }

  private CompletionStage<Boolean> lwt(
      com.datastax.oss.driver.api.core.cql.BoundStatement statement) {
    return CqlFailures.translated(
        session
            .executeAsync(statement.setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenApply(AsyncResultSet::wasApplied));
  }

  @Override
  public CompletionStage<byte[]> pageTokenKey() {
    byte[] candidate = new byte[32];
    new SecureRandom().nextBytes(candidate);
    return CqlFailures.translated(
        session
            .executeAsync(
                insertSetting
                    .bind("page_token_key", ByteBuffer.wrap(candidate))
                    .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
            .thenCompose(
                rs ->
                    session.executeAsync(
                        selectSetting
                            .bind("page_token_key")
                            .setConsistencyLevel(ConsistencyLevel.SERIAL)))
            .thenApply(
                rs -> {
                  ByteBuffer value = rs.one().getByteBuffer(0);
                  byte[] key = new byte[value.remaining()];
                  value.get(key);
                  return key;
                }));
  }

  /** Columns of {@code time_slices} added after its first version, in the order they came. */
  private static final Map<String, String> SLICE_COLUMNS_ADDED = new LinkedHashMap<>();

  static {
    SLICE_COLUMNS_ADDED.put("status_time", "timestamp");
    SLICE_COLUMNS_ADDED.put("compaction", "text");
    SLICE_COLUMNS_ADDED.put("compaction_time", "timestamp");
    SLICE_COLUMNS_ADDED.put("histogram", "text");
    SLICE_COLUMNS_ADDED.put("pending_table", "text");
    SLICE_COLUMNS_ADDED.put("pending_seconds_per_time_bucket", "bigint");
    SLICE_COLUMNS_ADDED.put("pending_event_buckets", "int");
    SLICE_COLUMNS_ADDED.put("pending_since", "timestamp");
    SLICE_COLUMNS_ADDED.put("previous_table", "text");
    SLICE_COLUMNS_ADDED.put("previous_drop_after", "timestamp");
  }

  /** Columns of {@code namespaces} added after its first version, in the order they came. */
  private static final Map<String, String> NAMESPACE_COLUMNS_ADDED =
      Map.of("deleting_since", "timestamp");

  /** {@code , name type} for each column, in order, for a CREATE TABLE. */
  private static String columnsOf(Map<String, String> columns) {
    StringBuilder cql = new StringBuilder();
    columns.forEach((name, type) -> cql.append(", ").append(name).append(' ').append(type));
    return cql.toString();
  }

  /**
   * Adds to a table of the metadata keyspace the columns it lacks: a control plane created by an
   * earlier version gains them at the first start of this one. Several servers starting at once may
   * add the same column: a column that another added meanwhile is not an error.
   */
  private static void addMissingColumns(
      CqlSession session,
      String keyspace,
      String table,
      Map<String, String> columns,
      Duration timeout) {
    Set<String> present = columns(session, keyspace, table);
    String qualified =
        CqlIdentifier.fromInternal(keyspace).asCql(true)
            + "."
            + CqlIdentifier.fromInternal(table).asCql(true);
    columns.forEach(
        (column, type) -> {
          if (present.contains(column)) {
            return;
          }
          try {
            SchemaChanges.applyNow(
                session,
                SimpleStatement.newInstance(
                    "ALTER TABLE " + qualified + " ADD " + column + " " + type),
                timeout);
          } catch (InvalidQueryException e) {
            // another server added it meanwhile (the messages differ by version and backend)
            if (!columns(session, keyspace, table).contains(column)) {
              throw e;
            }
          }
        });
  }

  private static Set<String> columns(CqlSession session, String keyspace, String table) {
    Set<String> present = new HashSet<>();
    session
        .execute(
            SimpleStatement.newInstance(
                "SELECT column_name FROM system_schema.columns"
                    + " WHERE keyspace_name = ? AND table_name = ?",
                keyspace,
                table))
        .forEach(row -> present.add(row.getString(0)));
    return present;
  }

  private PreparedStatement prepare(String cql) {
    return SchemaChanges.prepareNow(session, cql, timeout);
  }

  private static NamespaceRecord namespace(Row row) {
    return new NamespaceRecord(
        row.getString(0),
        row.getString(1),
        row.getLong(2),
        row.getInstant(3),
        row.getInstant(4),
        Optional.ofNullable(row.getInstant(5)));
  }

  private static CompletionStage<Void> collect(
      CompletionStage<AsyncResultSet> stage, Consumer<Row> sink) {
    return stage.thenCompose(
        rs -> {
          rs.currentPage().forEach(sink);
          return rs.hasMorePages()
              ? collect(rs.fetchNextPage(), sink)
              : CompletableFuture.completedFuture(null);
        });
  }
}
