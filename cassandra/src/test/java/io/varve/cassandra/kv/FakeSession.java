package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.PrepareRequest;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.Metadata;
import com.datastax.oss.driver.api.core.metadata.token.Partitioner;
import com.datastax.oss.driver.api.core.metrics.Metrics;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import com.datastax.oss.driver.api.core.type.reflect.GenericType;
import io.varve.cassandra.kv.FakeResults.Column;
import io.varve.cassandra.kv.FakeResults.Columns;
import io.varve.cassandra.kv.FakeResults.FakeRow;
import io.varve.core.kv.KeyRange;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fake of the driver's {@link CqlSession} for unit tests of the item reads: it prepares any
 * statement, binds values with the driver's own {@link BoundStatementBuilder} and codecs, and
 * answers the two query shapes a page read sends, from cells held in memory: the rows of one record
 * of an item table ({@code SELECT key, <columns> ... WHERE id = ? [AND key <op> ?]... | [AND key IN
 * ?]}, in ascending key order, in driver pages of the statement's page size) and one chunk of a
 * chunk table. Any other statement fails, naming its CQL.
 */
final class FakeSession implements CqlSession {

  /** The cells of an item row, as Varve writes them. */
  record Cells(ByteBuffer value, ByteBuffer metadata, long writetime) {}

  /**
   * A query the session answered: its shape ({@code VALUES}, {@code METADATA}, {@code SIZES} or
   * {@code CHUNK}), its page size.
   */
  record Query(String shape, String cql, int pageSize) {}

  private static final Pattern ITEMS =
      Pattern.compile(
          "SELECT key, (value, WRITETIME\\(value\\)|value_metadata, WRITETIME\\(value_metadata\\)"
              + "|value_metadata) FROM \\S+ WHERE id = \\?((?: AND key (?:>=|>|<=|<|IN) \\?)*)");

  private static final Pattern CONDITION = Pattern.compile(" AND key (>=|>|<=|<|IN) \\?");

  private static final Pattern CHUNK =
      Pattern.compile(
          "SELECT data FROM \\S+ WHERE id = \\? AND key = \\? AND generation = \\? AND nonce = \\?"
              + " AND chunk = \\?");

  private final Map<String, TreeMap<byte[], Cells>> items = new ConcurrentHashMap<>();
  private final Map<String, ByteBuffer> chunks = new ConcurrentHashMap<>();
  private final List<Query> queries = new ArrayList<>();
  private final java.util.concurrent.atomic.AtomicInteger driverPages =
      new java.util.concurrent.atomic.AtomicInteger();
  private Consumer<Query> onQuery = q -> {};
  private CompletableFuture<Void> gate;

  /** Writes the item row of {@code key} in record {@code id}. */
  void put(String id, byte[] key, Cells cells) {
    items.computeIfAbsent(id, i -> new TreeMap<>(KeyRange::compare)).put(key.clone(), cells);
  }

  /** Removes the item row of {@code key} in record {@code id}. */
  void remove(String id, byte[] key) {
    items.getOrDefault(id, new TreeMap<>(KeyRange::compare)).remove(key);
  }

  /** Writes chunk {@code index} of the value version {@code generation, nonce} of an item. */
  void putChunk(String id, byte[] key, long generation, String nonce, int index, ByteBuffer data) {
    chunks.put(chunkKey(id, key, generation, nonce, index), data);
  }

  /** Removes every chunk (the sweeper took them). */
  void removeChunks() {
    chunks.clear();
  }

  /** Runs {@code listener} on each query, before it is answered. */
  void onQuery(Consumer<Query> listener) {
    this.onQuery = listener;
  }

  /** Holds the answer of the next query until the returned future completes: a fetch in flight. */
  CompletableFuture<Void> holdNext() {
    gate = new CompletableFuture<>();
    return gate;
  }

  /** The queries answered so far, in order. */
  List<Query> queries() {
    return List.copyOf(queries);
  }

  /** The driver pages of item rows served so far, first pages and those fetched after them. */
  int driverPages() {
    return driverPages.get();
  }

  /** The queries of one shape answered so far. */
  long count(String shape) {
    return queries.stream().filter(q -> q.shape().equals(shape)).count();
  }

  private static String chunkKey(String id, byte[] key, long generation, String nonce, int index) {
    return id + "/" + HexFormat.of().formatHex(key) + "/" + generation + "/" + nonce + "/" + index;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <RequestT extends Request, ResultT> ResultT execute(
      RequestT request, GenericType<ResultT> resultType) {
    if (request instanceof PrepareRequest prepare) {
      return (ResultT) CompletableFuture.completedFuture(new Prepared(prepare.getQuery()));
    }
    if (request instanceof BoundStatement bound && resultType.equals(Statement.ASYNC)) {
      CompletionStage<AsyncResultSet> answer = CompletableFuture.completedFuture(null);
      if (gate != null) {
        answer = gate.thenApply(v -> null);
        gate = null;
      }
      return (ResultT) answer.thenApply(v -> answer(bound));
    }
    throw new UnsupportedOperationException("the fake session does not run " + request);
  }

  private AsyncResultSet answer(BoundStatement bound) {
    String cql = bound.getPreparedStatement().getQuery();
    Matcher items = ITEMS.matcher(cql);
    if (items.matches()) {
      String shape =
          items.group(1).startsWith("value,")
              ? "VALUES"
              : items.group(1).contains("WRITETIME") ? "METADATA" : "SIZES";
      Query query = new Query(shape, cql, bound.getPageSize());
      queries.add(query);
      onQuery.accept(query);
      return itemRows(shape, items.group(2), bound);
    }
    if (CHUNK.matcher(cql).matches()) {
      Query query = new Query("CHUNK", cql, bound.getPageSize());
      queries.add(query);
      onQuery.accept(query);
      Columns columns = new Columns(new Column("data", DataTypes.BLOB));
      ByteBuffer data =
          chunks.get(
              chunkKey(
                  bound.getString(0),
                  RowStream.bytes(bound.getByteBuffer(1)),
                  bound.getLong(2),
                  bound.getString(3),
                  bound.getInt(4)));
      List<Row> rows = data == null ? List.of() : List.of(new FakeRow(columns, data.duplicate()));
      return new FakeResults.Page(columns, rows, null);
    }
    throw new UnsupportedOperationException("the fake session does not answer " + cql);
  }

  private AsyncResultSet itemRows(String shape, String conditions, BoundStatement bound) {
    Columns columns =
        switch (shape) {
          case "VALUES" ->
              new Columns(
                  new Column("key", DataTypes.BLOB),
                  new Column("value", DataTypes.BLOB),
                  new Column("writetime(value)", DataTypes.BIGINT));
          case "METADATA" ->
              new Columns(
                  new Column("key", DataTypes.BLOB),
                  new Column("value_metadata", DataTypes.BLOB),
                  new Column("writetime(value_metadata)", DataTypes.BIGINT));
          default ->
              new Columns(
                  new Column("key", DataTypes.BLOB), new Column("value_metadata", DataTypes.BLOB));
        };
    List<Row> rows = new ArrayList<>();
    TreeMap<byte[], Cells> record = this.items.getOrDefault(bound.getString(0), new TreeMap<>());
    for (Map.Entry<byte[], Cells> e : record.entrySet()) {
      if (!matches(e.getKey(), conditions, bound)) {
        continue;
      }
      ByteBuffer key = ByteBuffer.wrap(e.getKey().clone());
      Cells c = e.getValue();
      ByteBuffer writetime =
          TypeCodecs.BIGINT.encodePrimitive(c.writetime(), ProtocolVersion.DEFAULT);
      rows.add(
          switch (shape) {
            case "VALUES" -> new FakeRow(columns, key, c.value().duplicate(), writetime);
            case "METADATA" -> new FakeRow(columns, key, c.metadata().duplicate(), writetime);
            default -> new FakeRow(columns, key, c.metadata().duplicate());
          });
    }
    return page(columns, rows, 0, bound.getPageSize());
  }

  /** The driver page of {@code rows} from {@code from}, of {@code pageSize} rows (all when 0). */
  private AsyncResultSet page(Columns columns, List<Row> rows, int from, int pageSize) {
    driverPages.incrementAndGet();
    int to = pageSize <= 0 ? rows.size() : Math.min(rows.size(), from + pageSize);
    return new FakeResults.Page(
        columns,
        rows.subList(from, to),
        to < rows.size()
            ? () -> CompletableFuture.completedFuture(page(columns, rows, to, pageSize))
            : null);
  }

  private static boolean matches(byte[] key, String conditions, BoundStatement bound) {
    Matcher m = CONDITION.matcher(conditions);
    int marker = 1;
    while (m.find()) {
      String op = m.group(1);
      if (op.equals("IN")) {
        List<ByteBuffer> keys = bound.getList(marker++, ByteBuffer.class);
        if (keys.stream().noneMatch(k -> Arrays.equals(RowStream.bytes(k), key))) {
          return false;
        }
        continue;
      }
      int c = KeyRange.compare(key, RowStream.bytes(bound.getByteBuffer(marker++)));
      boolean ok =
          switch (op) {
            case ">=" -> c >= 0;
            case ">" -> c > 0;
            case "<=" -> c <= 0;
            default -> c < 0;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** A prepared statement whose markers are typed by the column each one is compared with. */
  private static final class Prepared implements PreparedStatement {
    private static final Pattern MARKER =
        Pattern.compile("(\\w+) (=|>=|>|<=|<|IN) \\?|(TIMESTAMP|TTL) \\?");

    private final String cql;
    private final ColumnDefinitions variables;

    Prepared(String cql) {
      this.cql = cql;
      List<Column> columns = new ArrayList<>();
      Matcher m = MARKER.matcher(cql);
      while (m.find()) {
        if (m.group(3) != null) {
          columns.add(
              new Column(
                  m.group(3).toLowerCase(),
                  m.group(3).equals("TTL") ? DataTypes.INT : DataTypes.BIGINT));
          continue;
        }
        DataType type =
            switch (m.group(1)) {
              case "id", "nonce" -> DataTypes.TEXT;
              case "key" -> DataTypes.BLOB;
              case "generation" -> DataTypes.BIGINT;
              case "chunk" -> DataTypes.INT;
              default -> throw new UnsupportedOperationException("a marker of " + m.group(1));
            };
        columns.add(
            new Column(m.group(1), m.group(2).equals("IN") ? DataTypes.listOf(type) : type));
      }
      this.variables = new Columns(columns.toArray(Column[]::new));
    }

    @Override
    public ByteBuffer getId() {
      return ByteBuffer.wrap(cql.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public String getQuery() {
      return cql;
    }

    @Override
    public ColumnDefinitions getVariableDefinitions() {
      return variables;
    }

    @Override
    public Partitioner getPartitioner() {
      return null;
    }

    @Override
    public List<Integer> getPartitionKeyIndices() {
      return List.of();
    }

    @Override
    public ByteBuffer getResultMetadataId() {
      return null;
    }

    @Override
    public ColumnDefinitions getResultSetDefinitions() {
      return new Columns();
    }

    @Override
    public boolean isLWT() {
      return false;
    }

    @Override
    public void setResultMetadata(ByteBuffer id, ColumnDefinitions definitions) {}

    @Override
    public BoundStatement bind(Object... values) {
      return boundStatementBuilder(values).build();
    }

    @Override
    public BoundStatementBuilder boundStatementBuilder(Object... values) {
      if (values.length > 0) {
        throw new UnsupportedOperationException("values are set by index");
      }
      return new BoundStatementBuilder(
          this,
          variables,
          new ByteBuffer[variables.size()],
          null,
          null,
          null,
          null,
          null,
          Map.of(),
          null,
          false,
          Statement.NO_DEFAULT_TIMESTAMP,
          null,
          0,
          null,
          null,
          null,
          CodecRegistry.DEFAULT,
          ProtocolVersion.DEFAULT);
    }
  }

  @Override
  public String getName() {
    return "fake";
  }

  @Override
  public Metadata getMetadata() {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean isSchemaMetadataEnabled() {
    return false;
  }

  @Override
  public CompletionStage<Metadata> setSchemaMetadataEnabled(Boolean newValue) {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletionStage<Metadata> refreshSchemaAsync() {
    throw new UnsupportedOperationException();
  }

  @Override
  public CompletionStage<Boolean> checkSchemaAgreementAsync() {
    throw new UnsupportedOperationException();
  }

  @Override
  public DriverContext getContext() {
    throw new UnsupportedOperationException();
  }

  @Override
  public Optional<CqlIdentifier> getKeyspace() {
    return Optional.empty();
  }

  @Override
  public Optional<Metrics> getMetrics() {
    return Optional.empty();
  }

  @Override
  public CompletionStage<Void> closeFuture() {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletionStage<Void> closeAsync() {
    return closeFuture();
  }

  @Override
  public CompletionStage<Void> forceCloseAsync() {
    return closeFuture();
  }
}
