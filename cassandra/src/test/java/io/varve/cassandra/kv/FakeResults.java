package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.detach.AttachmentPoint;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Fakes of the driver's result interfaces for unit tests: columns, rows of cells as Cassandra sends
 * them (read through the driver's own codecs), and driver pages chained by {@code fetchNextPage}.
 */
final class FakeResults {

  private FakeResults() {}

  /** A column of a result. */
  record Column(String name, DataType type) implements ColumnDefinition {

    @Override
    public CqlIdentifier getKeyspace() {
      return CqlIdentifier.fromInternal("ks");
    }

    @Override
    public CqlIdentifier getTable() {
      return CqlIdentifier.fromInternal("items");
    }

    @Override
    public CqlIdentifier getName() {
      return CqlIdentifier.fromInternal(name);
    }

    @Override
    public DataType getType() {
      return type;
    }

    @Override
    public boolean isDetached() {
      return false;
    }

    @Override
    public void attach(AttachmentPoint attachmentPoint) {}
  }

  /** The columns of a result, found by name as the driver finds them (CQL rules). */
  static final class Columns implements ColumnDefinitions {
    private final List<ColumnDefinition> columns;

    Columns(Column... columns) {
      this.columns = List.of(columns);
    }

    @Override
    public int size() {
      return columns.size();
    }

    @Override
    public ColumnDefinition get(int i) {
      return columns.get(i);
    }

    @Override
    public boolean contains(String name) {
      return firstIndexOf(name) >= 0;
    }

    @Override
    public boolean contains(CqlIdentifier id) {
      return firstIndexOf(id) >= 0;
    }

    @Override
    public int firstIndexOf(String name) {
      return firstIndexOf(CqlIdentifier.fromCql(name));
    }

    @Override
    public int firstIndexOf(CqlIdentifier id) {
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).getName().equals(id)) {
          return i;
        }
      }
      return -1;
    }

    @Override
    public Iterator<ColumnDefinition> iterator() {
      return columns.iterator();
    }

    @Override
    public boolean isDetached() {
      return false;
    }

    @Override
    public void attach(AttachmentPoint attachmentPoint) {}
  }

  /** A row: its cells as serialized bytes (null for a null cell). */
  static final class FakeRow implements Row {
    private final ColumnDefinitions columns;
    private final ByteBuffer[] cells;

    FakeRow(ColumnDefinitions columns, ByteBuffer... cells) {
      if (cells.length != columns.size()) {
        throw new IllegalArgumentException(cells.length + " cells for " + columns.size());
      }
      this.columns = columns;
      this.cells = cells;
    }

    @Override
    public ColumnDefinitions getColumnDefinitions() {
      return columns;
    }

    @Override
    public ByteBuffer getBytesUnsafe(int i) {
      return cells[i];
    }

    @Override
    public int size() {
      return cells.length;
    }

    @Override
    public DataType getType(int i) {
      return columns.get(i).getType();
    }

    @Override
    public int firstIndexOf(String name) {
      return index(columns.firstIndexOf(name), name);
    }

    @Override
    public DataType getType(String name) {
      return getType(firstIndexOf(name));
    }

    @Override
    public int firstIndexOf(CqlIdentifier id) {
      return index(columns.firstIndexOf(id), id);
    }

    @Override
    public DataType getType(CqlIdentifier id) {
      return getType(firstIndexOf(id));
    }

    private static int index(int i, Object name) {
      if (i < 0) {
        throw new IllegalArgumentException(name + " is not a column in this row");
      }
      return i;
    }

    @Override
    public CodecRegistry codecRegistry() {
      return CodecRegistry.DEFAULT;
    }

    @Override
    public ProtocolVersion protocolVersion() {
      return ProtocolVersion.DEFAULT;
    }

    @Override
    public boolean isDetached() {
      return false;
    }

    @Override
    public void attach(AttachmentPoint attachmentPoint) {}

    @Override
    public String toString() {
      return "FakeRow" + Arrays.toString(cells);
    }
  }

  /**
   * One driver page: its rows, iterable once as the driver's are, and how the next page is fetched
   * ({@code next} null: this is the last page).
   */
  static final class Page implements AsyncResultSet {
    private final ColumnDefinitions columns;
    private final List<Row> rows;
    private final Supplier<CompletionStage<AsyncResultSet>> next;
    private int consumed;

    Page(
        ColumnDefinitions columns, List<Row> rows, Supplier<CompletionStage<AsyncResultSet>> next) {
      this.columns = columns;
      this.rows = rows;
      this.next = next;
    }

    @Override
    public ColumnDefinitions getColumnDefinitions() {
      return columns;
    }

    @Override
    public ExecutionInfo getExecutionInfo() {
      throw new UnsupportedOperationException();
    }

    @Override
    public int remaining() {
      return rows.size() - consumed;
    }

    @Override
    public Iterable<Row> currentPage() {
      return () ->
          new Iterator<>() {
            @Override
            public boolean hasNext() {
              return consumed < rows.size();
            }

            @Override
            public Row next() {
              return rows.get(consumed++);
            }
          };
    }

    @Override
    public boolean hasMorePages() {
      return next != null;
    }

    @Override
    public CompletionStage<AsyncResultSet> fetchNextPage() {
      if (next == null) {
        throw new IllegalStateException("no next page");
      }
      return next.get();
    }

    @Override
    public boolean wasApplied() {
      return true;
    }
  }

  /**
   * The driver pages of one query, served one after the other; counts the pages fetched. {@link
   * #then} makes the last page say more follow and answers its {@code fetchNextPage}.
   */
  static final class Pages {
    private final ColumnDefinitions columns;
    private final List<List<Row>> pages;
    private Supplier<CompletionStage<AsyncResultSet>> after;
    private int fetched;

    Pages(ColumnDefinitions columns, List<List<Row>> pages) {
      this.columns = columns;
      this.pages = new ArrayList<>(pages);
    }

    /** What fetching past the last page returns. */
    Pages then(Supplier<CompletionStage<AsyncResultSet>> after) {
      this.after = after;
      return this;
    }

    /** The query's first page, fetched. */
    CompletionStage<AsyncResultSet> first() {
      return page(0);
    }

    /** Driver pages fetched so far, the first one included. */
    int fetched() {
      return fetched;
    }

    private CompletionStage<AsyncResultSet> page(int i) {
      fetched++;
      Supplier<CompletionStage<AsyncResultSet>> next =
          i + 1 < pages.size() ? () -> page(i + 1) : after;
      return CompletableFuture.completedFuture(new Page(columns, pages.get(i), next));
    }
  }
}
