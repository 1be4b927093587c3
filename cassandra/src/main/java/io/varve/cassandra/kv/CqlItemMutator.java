package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.RecordMutation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Applies the mutations of a MutateItems request with {@link CqlItemWriter}'s statements (the same
 * rows, tombstones and write times as PutItems and DeleteItems), one record at a time as one
 * single-partition unlogged batch: Cassandra applies such a batch as one mutation, atomically and
 * in isolation on each replica. The records of a request are separate batches, run side by side
 * through the shared write limiter, and are not atomic together: if one fails, others may have been
 * applied. The outcome is known only once every record's batch has finished, so a caller that
 * retries (with the same token: the same cells at the same write time) never races its own first
 * attempt.
 */
public final class CqlItemMutator {

  private final CqlItemWriter writer;

  public CqlItemMutator(CqlItemWriter writer) {
    this.writer = writer;
  }

  /**
   * Writes every record's batch; completes when all have finished, exceptionally with the first
   * record's failure if any failed.
   */
  public CompletionStage<Void> mutate(
      KvNamespace ns, IdempotencyToken token, List<RecordMutation> records) {
    List<CompletableFuture<Void>> batches = new ArrayList<>();
    for (RecordMutation record : records) {
      batches.add(record(ns, token, record).toCompletableFuture());
    }
    // allOf completes once every batch has finished, exceptionally when one failed
    return CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new));
  }

  private CompletionStage<Void> record(
      KvNamespace ns, IdempotencyToken token, RecordMutation record) {
    List<CompletionStage<CqlItemWriter.Writes>> parts = new ArrayList<>();
    if (!record.puts().isEmpty()) {
      parts.add(writer.puts(ns, record.id(), token, record.puts()));
    }
    for (ItemPredicate delete : record.deletes()) {
      parts.add(writer.deletes(ns, record.id(), token, delete));
    }
    CompletionStage<CqlItemWriter.Writes> all =
        CompletableFuture.completedFuture(new CqlItemWriter.Writes(List.of(), 0));
    for (CompletionStage<CqlItemWriter.Writes> part : parts) {
      all = all.thenCombine(part, CqlItemMutator::join);
    }
    return all.thenCompose(w -> writer.execute(ns, w.batch(), w.bytes()));
  }

  private static CqlItemWriter.Writes join(CqlItemWriter.Writes a, CqlItemWriter.Writes b) {
    List<BatchableStatement<?>> statements = new ArrayList<>(a.statements());
    statements.addAll(b.statements());
    return new CqlItemWriter.Writes(statements, a.bytes() + b.bytes());
  }
}
