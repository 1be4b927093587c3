package io.varve.core.kv;

import io.varve.core.error.InvalidFieldException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Checks the mutations of a MutateItems request as a whole, before any work, and groups them by
 * record. Each mutation was validated on its own (as PutItems' items or DeleteItems' predicate);
 * here: their count, the records they touch, the rows and bytes they write together (the bounds of
 * one PutItems), and that the mutations of one record do not overlap. All of a request's mutations
 * share one write time, and at equal write times Cassandra keeps a tombstone over a value and the
 * larger of two values: an overlap would be resolved by those rules, not by the order the caller
 * wrote, so it is refused.
 */
public final class KvMutations {

  /**
   * Most records one request mutates. Each record is its own batch (its own CQL request, replicas
   * and acknowledgements): a hundred keep one call's fan-out modest; a caller with more sends more
   * calls.
   */
  public static final int MAX_RECORDS = 100;

  private static final String FIELD = "mutations";

  private KvMutations() {}

  /**
   * Runs {@code check}, naming the fields of any error it throws below {@code prefix} (e.g. {@code
   * mutations[2].put.} + {@code items[0].key}).
   */
  public static <T> T within(String prefix, Supplier<T> check) {
    try {
      return check.get();
    } catch (InvalidFieldException e) {
      throw InvalidFieldException.of(
          prefix + e.field(), e.getMessage().substring(e.field().length() + 2));
    }
  }

  /** The mutations grouped by record, in the order each record first appears. */
  public static List<RecordMutation> records(List<KvMutation> mutations, KvLimits limits) {
    if (mutations.isEmpty() || mutations.size() > limits.maxItemsPerRequest()) {
      throw new InvalidFieldException(
          FIELD, mutations.size() + " mutations", "1.." + limits.maxItemsPerRequest());
    }
    Map<String, Record> records = new LinkedHashMap<>();
    long rows = 0;
    long bytes = 0;
    for (int j = 0; j < mutations.size(); j++) {
      KvMutation m = mutations.get(j);
      Record record = records.computeIfAbsent(m.id(), id -> new Record());
      if (records.size() > MAX_RECORDS) {
        throw new InvalidFieldException(
            FIELD, "more than " + MAX_RECORDS + " records", "at most " + MAX_RECORDS + " records");
      }
      // the totals first: they bound the work of the overlap checks
      if (m instanceof KvMutation.Put put) {
        rows += put.items().size();
        bytes += put.items().stream().mapToLong(i -> i.key().length + i.value().length).sum();
      } else if (m instanceof KvMutation.Delete delete) {
        rows += delete.predicate() instanceof ItemPredicate.Keys k ? k.keys().size() : 1;
      }
      if (rows > limits.maxItemsPerRequest()) {
        throw new InvalidFieldException(
            FIELD,
            "more than " + limits.maxItemsPerRequest() + " rows written (put items, deleted keys)",
            "at most " + limits.maxItemsPerRequest());
      }
      if (bytes > limits.maxRequestBytes()) {
        throw new InvalidFieldException(
            FIELD, bytes + " bytes of keys and values", "at most " + limits.maxRequestBytes());
      }
      if (m instanceof KvMutation.Put put) {
        for (int i = 0; i < put.items().size(); i++) {
          record.put(put.items().get(i), j, "mutations[" + j + "].put.items[" + i + "].key");
        }
      } else if (m instanceof KvMutation.Delete delete) {
        record.delete(delete.predicate(), j);
      }
    }
    List<RecordMutation> grouped = new ArrayList<>();
    records.forEach(
        (id, r) ->
            grouped.add(new RecordMutation(id, List.copyOf(r.puts), List.copyOf(r.deletes))));
    return grouped;
  }

  /** What a request does to one record so far, to find overlaps. */
  private static final class Record {
    private final TreeMap<byte[], Integer> putKeys = new TreeMap<>(KeyRange::compare);
    private final List<KvItem> puts = new ArrayList<>();
    private final List<ItemPredicate> deletes = new ArrayList<>();
    private final List<Integer> deletedBy = new ArrayList<>();

    void put(KvItem item, int mutation, String field) {
      Integer twice = putKeys.putIfAbsent(item.key(), mutation);
      if (twice != null) {
        throw InvalidFieldException.of(
            field,
            "a key also put by mutations["
                + twice
                + "] of the same record (expected: each key once per request)");
      }
      for (int d = 0; d < deletes.size(); d++) {
        if (covers(deletes.get(d), item.key())) {
          throw overlap(field, deletedBy.get(d));
        }
      }
      puts.add(item);
    }

    void delete(ItemPredicate predicate, int mutation) {
      for (Map.Entry<byte[], Integer> put : putKeys.entrySet()) {
        if (covers(predicate, put.getKey())) {
          throw overlap("mutations[" + mutation + "].delete.predicate", put.getValue());
        }
      }
      deletes.add(predicate);
      deletedBy.add(mutation);
    }

    private static InvalidFieldException overlap(String field, int other) {
      return InvalidFieldException.of(
          field,
          "a key both put and deleted in the same record (with mutations["
              + other
              + "]); one request has one write time, so their order would be lost (expected:"
              + " separate requests, the later one with the later generation_time)");
    }

    private static boolean covers(ItemPredicate predicate, byte[] key) {
      if (predicate instanceof ItemPredicate.Range r) {
        return r.range().contains(key);
      }
      if (predicate instanceof ItemPredicate.Keys k) {
        return k.keys().stream().anyMatch(x -> KeyRange.compare(x, key) == 0);
      }
      return true; // match_all
    }
  }
}
