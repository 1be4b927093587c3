package io.varve.core.kv;

import io.varve.core.read.ResponseMemory;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The storage contract of the KeyValue service: the items of a namespace's records, written and
 * read by the idempotency tokens' generation times. Its stages fail only with a {@link
 * io.varve.core.error.VarveException}: a failure of the store as a {@link
 * io.varve.core.error.StorageException}, classified by the implementation.
 */
public interface ItemStore {

  /** Writes the items of one record in one write that commits them all (large values chunked). */
  CompletionStage<Void> put(KvNamespace ns, String id, IdempotencyToken token, List<KvItem> items);

  /**
   * A PutItems with the chunked protocol's parts and commits (docs/key-value.md, "Large values in
   * parts"): stages {@code parts}, then writes {@code items} and the values {@code commits} make of
   * their staged parts in one write that commits them all; a commit that does not match its parts
   * is refused (FAILED_PRECONDITION) with nothing written but the parts.
   */
  CompletionStage<Void> put(
      KvNamespace ns,
      String id,
      IdempotencyToken token,
      List<KvItem> items,
      List<KvPart> parts,
      List<KvCommit> commits);

  /** Deletes the items of one record that the predicate matches. */
  CompletionStage<Void> delete(
      KvNamespace ns, String id, IdempotencyToken token, ItemPredicate predicate);

  /**
   * Puts and deletes over several records, each record's all or nothing; completes when every
   * record's write has finished, exceptionally with a failure if one failed.
   */
  CompletionStage<Void> mutate(
      KvNamespace ns, IdempotencyToken token, List<RecordMutation> records);

  /**
   * A page of one record's items.
   *
   * @param predicate the items to read, already narrowed to those after the previous page
   * @param values whether to read values (otherwise keys and metadata only)
   * @param wantedRows the rows the item-size estimate says fill the page
   * @param firstRows rows of the first fetch with values ({@link FetchSizes#firstFetch})
   * @param page the page's bounds; a value it takes in parts ({@link BytePage#inParts()}) is read
   *     only as far as its first part, and {@link ItemPage#parts()} pins its version
   * @param raw whether values come as stored (compressed), for a client that decompresses them
   * @param budget the time the page may take: when it stops the read, the page holds the items
   *     taken so far and {@link ItemPage#more()} is set
   * @param memory holds the page's keys and values once the page is known; when it has no room, the
   *     read fails RESOURCE_EXHAUSTED
   */
  CompletionStage<ItemPage> read(
      KvNamespace ns,
      String id,
      ItemPredicate predicate,
      boolean values,
      int wantedRows,
      int firstRows,
      BytePage page,
      boolean raw,
      ReadBudget budget,
      ResponseMemory memory);

  /**
   * Part {@code parts.index()} (at least 1) of a value returned in parts, from the version its
   * first part pinned, never from whatever is current: a value of a replaced version stays readable
   * for the chunk sweeper's grace period.
   *
   * @param memory holds what reading the part holds (the part, or the whole value when it must be
   *     decompressed to be cut); RESOURCE_EXHAUSTED when it has no room
   * @return the part's bytes; fails FAILED_PRECONDITION when the pinned version is gone (the row
   *     holds another one, or a chunk was swept)
   */
  CompletionStage<byte[]> readPart(
      KvNamespace ns, String id, byte[] key, ValueParts parts, ResponseMemory memory);

  /**
   * A page of one segment of the namespace's token ring.
   *
   * @param after the previous page's position, null for a first page
   * @param wantedRows the rows the item-size estimate says fill the page (bounded by the store)
   */
  CompletionStage<ScanPage> scan(
      KvNamespace ns,
      ScanSegment segment,
      ScanPosition after,
      boolean values,
      int wantedRows,
      BytePage page,
      ReadBudget budget,
      ResponseMemory memory);
}
