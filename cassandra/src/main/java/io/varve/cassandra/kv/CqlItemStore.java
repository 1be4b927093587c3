package io.varve.cassandra.kv;

import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.ItemStore;
import io.varve.core.kv.KvCommit;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvPart;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.RecordMutation;
import io.varve.core.kv.ScanPage;
import io.varve.core.kv.ScanPosition;
import io.varve.core.kv.ScanSegment;
import io.varve.core.kv.ValueParts;
import io.varve.core.read.ResponseMemory;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The item store on Cassandra or ScyllaDB: writes through {@link CqlItemWriter} and {@link
 * CqlItemMutator}, point reads through {@link CqlItemReader}, scans through {@link CqlItemScanner}.
 * The driver's failures are translated here, once per method ({@link CqlFailures#translated}): a
 * failure of any step of a call, thrown or completed, reaches the caller as a classified {@link
 * io.varve.core.error.VarveException}, never as the driver's own exception.
 */
public final class CqlItemStore implements ItemStore {

  private final CqlItemWriter writer;
  private final CqlItemMutator mutator;
  private final CqlItemReader reader;
  private final CqlItemScanner scanner;

  public CqlItemStore(CqlItemWriter writer, CqlItemReader reader) {
    this.writer = writer;
    this.mutator = new CqlItemMutator(writer);
    this.reader = reader;
    this.scanner = reader.scanner();
  }

  @Override
  public CompletionStage<Void> put(
      KvNamespace ns, String id, IdempotencyToken token, List<KvItem> items) {
    return CqlFailures.translated(() -> writer.put(ns, id, token, items));
  }

  @Override
  public CompletionStage<Void> put(
      KvNamespace ns,
      String id,
      IdempotencyToken token,
      List<KvItem> items,
      List<KvPart> parts,
      List<KvCommit> commits) {
    return CqlFailures.translated(() -> writer.put(ns, id, token, items, parts, commits));
  }

  @Override
  public CompletionStage<Void> delete(
      KvNamespace ns, String id, IdempotencyToken token, ItemPredicate predicate) {
    return CqlFailures.translated(() -> writer.delete(ns, id, token, predicate));
  }

  @Override
  public CompletionStage<Void> mutate(
      KvNamespace ns, IdempotencyToken token, List<RecordMutation> records) {
    return CqlFailures.translated(() -> mutator.mutate(ns, token, records));
  }

  @Override
  public CompletionStage<ItemPage> read(
      KvNamespace ns,
      String id,
      ItemPredicate predicate,
      boolean values,
      int wantedRows,
      int firstRows,
      BytePage page,
      boolean raw,
      ReadBudget budget,
      ResponseMemory memory) {
    return CqlFailures.translated(
        () ->
            reader.read(
                ns, id, predicate, values, wantedRows, firstRows, page, raw, budget, memory));
  }

  @Override
  public CompletionStage<byte[]> readPart(
      KvNamespace ns, String id, byte[] key, ValueParts parts, ResponseMemory memory) {
    return CqlFailures.translated(() -> reader.part(ns, id, key, parts, memory));
  }

  @Override
  public CompletionStage<ScanPage> scan(
      KvNamespace ns,
      ScanSegment segment,
      ScanPosition after,
      boolean values,
      int wantedRows,
      BytePage page,
      ReadBudget budget,
      ResponseMemory memory) {
    return CqlFailures.translated(
        () -> scanner.scan(ns, segment, after, values, wantedRows, page, budget, memory));
  }
}
