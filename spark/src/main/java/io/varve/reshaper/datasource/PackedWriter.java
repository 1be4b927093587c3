package io.varve.reshaper.datasource;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.packing.Batch;
import io.varve.packing.PackingLimits;
import io.varve.packing.Placement;
import io.varve.packing.ReplicaPacker;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * What the write tasks of both data sources share. Each row is turned into a stored row of the
 * namespace ({@link #convert}: checked, placed, encoded; null when refused, a bad row counted by
 * {@link #badRows}), then packed by the {@code packing} module's {@link ReplicaPacker} with the
 * rows of its partition and of partitions with the same replicas, at most {@value #BATCH_ROWS}
 * rows, {@value #BATCH_PARTITIONS} partitions and {@value #BATCH_BYTES} bytes (the reshaper's
 * defaults), and sent as one statement or an unlogged batch through {@link InFlight}. A batch never
 * holds two versions of one row (the later wins): Cassandra would settle their cells one by one.
 *
 * @param <R> a stored row on its way
 */
public abstract class PackedWriter<R> implements DataWriter<InternalRow> {

  public static final int BATCH_ROWS = 100;
  public static final int BATCH_PARTITIONS = 10;
  public static final int BATCH_BYTES = 4096;

  /** How a stored row is packed: its size, its partition and its identity. */
  public record Packing<R>(
      ToLongFunction<R> bytes,
      BiPredicate<R, R> samePartition,
      Function<R, ByteBuffer[]> partitionKey,
      BiPredicate<R, R> sameRow) {}

  protected final CqlSession session;
  protected final InFlight inFlight;
  protected final BadRows badRows;
  private final BiPredicate<R, R> sameRow;
  private final ReplicaPacker<R> packer;
  private long written;

  /** The number of the row being written in this task, from 1. */
  protected long rowNumber;

  protected PackedWriter(
      CassandraConnector connector,
      String keyspace,
      String namespace,
      String consistency,
      long maxBadRows,
      Packing<R> packing) {
    this.session = connector.openSession();
    this.inFlight = new InFlight(session, DefaultConsistencyLevel.valueOf(consistency), namespace);
    this.badRows = new BadRows(namespace, maxBadRows);
    this.sameRow = packing.sameRow();
    Optional<TokenMap> tokens = session.getMetadata().getTokenMap();
    CqlIdentifier ks = CqlIdentifier.fromInternal(keyspace);
    this.packer =
        new ReplicaPacker<>(
            new PackingLimits(BATCH_ROWS, BATCH_PARTITIONS, BATCH_BYTES),
            Placement.of(
                packing.bytes(),
                packing.samePartition(),
                row ->
                    tokens
                        .map(t -> t.getReplicas(ks, t.newToken(packing.partitionKey().apply(row))))
                        .orElse(null)),
            this::send);
  }

  /** The stored row of {@code row}, or null when the namespace refuses it (counted as bad). */
  protected abstract R convert(InternalRow row);

  /** The insert of a stored row. */
  protected abstract BoundStatement bind(R row);

  @Override
  public final void write(InternalRow row) {
    inFlight.check();
    rowNumber++;
    R stored = convert(row);
    if (stored != null) {
      packer.add(stored);
      written++;
    }
  }

  private void send(Batch<R> batch) {
    List<R> rows = new ArrayList<>(batch.items().size());
    for (R row : batch.items()) {
      rows.removeIf(earlier -> sameRow.test(earlier, row));
      rows.add(row);
    }
    List<BoundStatement> statements = new ArrayList<>(rows.size());
    for (R row : rows) {
      statements.add(bind(row));
    }
    Statement<?> statement =
        statements.size() == 1
            ? statements.get(0)
            : BatchStatement.newInstance(BatchType.UNLOGGED).addAll(statements);
    inFlight.send(statement, batch.bytes());
  }

  @Override
  public final WriterCommitMessage commit() {
    packer.flush();
    inFlight.drain();
    inFlight.check();
    return badRows.result(written);
  }

  @Override
  public final void abort() {
    inFlight.drain();
  }

  @Override
  public final void close() {
    session.close();
  }
}
