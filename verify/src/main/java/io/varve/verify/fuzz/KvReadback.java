package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.Selection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads back, through GetItems, every KeyValue record a run wrote to or was refused on, and
 * compares it with the {@link KvModel}: each item with the value of its latest acknowledged
 * mutation by generation time (absent when that is a delete), no item only ever refused, and the
 * items of a record in the namespace's clustering order.
 */
final class KvReadback {

  private static final int PAGE_BYTES = 16 << 20;
  private static final int MAX_PAGES = 10_000;
  private static final int MAX_KEYS = 1000;
  private static final int MAX_KEY_BYTES = 4096;

  private final ApiClient client;
  private final KvModel model;
  private final Set<String> descending;
  private final Consumer<String> failure;
  int itemsChecked;
  int reads;

  KvReadback(ApiClient client, KvModel model, Set<String> descending, Consumer<String> failure) {
    this.client = client;
    this.model = model;
    this.descending = descending;
    this.failure = failure;
  }

  void run() {
    model.records.forEach(this::check);
  }

  private void check(KvModel.RecordKey r, KvModel.RecordState s) {
    if (s.keys.isEmpty()) {
      return;
    }
    boolean anyStored =
        s.keys.stream()
            .map(s::expected)
            .anyMatch(e -> e.isEmpty() || e.get().stream().anyMatch(v -> v != null));
    Predicate all = Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build();
    Map<ByteString, ByteString> stored = read(r, all, anyStored);
    if (stored == null || s.opaque) {
      return;
    }
    compare(r, s, s.keys, stored, "");
    // the same keys by point reads, the path the namespace's cache serves
    // (keys over the bound are refused by a read as by a write: they are checked by the one above)
    List<ByteString> keys = s.keys.stream().filter(k -> k.size() <= MAX_KEY_BYTES).toList();
    for (int from = 0; from < keys.size(); from += MAX_KEYS) {
      List<ByteString> batch = keys.subList(from, Math.min(keys.size(), from + MAX_KEYS));
      Predicate listed =
          Predicate.newBuilder().setMatchKeys(MatchKeys.newBuilder().addAllKeys(batch)).build();
      Map<ByteString, ByteString> found = read(r, listed, true);
      if (found != null) {
        compare(r, s, batch, found, " (read by its key)");
      }
    }
  }

  private void compare(
      KvModel.RecordKey r,
      KvModel.RecordState s,
      Iterable<ByteString> keys,
      Map<ByteString, ByteString> stored,
      String how) {
    for (ByteString key : keys) {
      Optional<Set<ByteString>> expected = s.expected(key);
      if (expected.isEmpty()) {
        continue;
      }
      itemsChecked++;
      ByteString value = stored.get(key);
      if (!expected.get().contains(value)) {
        failure.accept(
            "item "
                + where(r, key)
                + how
                + ": stored "
                + describe(value)
                + ", but the latest acknowledged mutation by generation time (record last touched"
                + " by case "
                + s.lastCase
                + ") leaves "
                + expected.get().stream().map(KvReadback::describe).toList());
      }
    }
  }

  /** Every item of the record, or null when it could not be read. */
  private Map<ByteString, ByteString> read(
      KvModel.RecordKey r, Predicate predicate, boolean mustExist) {
    Map<ByteString, ByteString> found = new HashMap<>();
    ByteString previous = null;
    String token = "";
    int pages = 0;
    do {
      GetItemsRequest request =
          GetItemsRequest.newBuilder()
              .setNamespace(r.namespace())
              .setId(r.id())
              .setPredicate(predicate)
              .setSelection(Selection.newBuilder().setPageSizeBytes(PAGE_BYTES))
              .setPageToken(token)
              .build();
      Outcome o = client.postJson("GetItems", FuzzPlan.print(request, false));
      reads++;
      if (!o.accepted()) {
        if (mustExist || o.serverFault()) {
          failure.accept(
              "read back record "
                  + where(r, null)
                  + " answered "
                  + o.status()
                  + " "
                  + Readback.text(o));
        }
        return null;
      }
      GetItemsResponse page = Readback.parseJson(o, GetItemsResponse.newBuilder());
      if (page == null) {
        failure.accept(
            "read back record " + where(r, null) + ": answer does not parse: " + Readback.text(o));
        return null;
      }
      for (Item item : page.getItemsList()) {
        if (previous != null && !inOrder(r, previous, item.getKey())) {
          failure.accept(
              "record "
                  + where(r, null)
                  + ": item "
                  + describe(item.getKey())
                  + " after "
                  + describe(previous)
                  + ", out of the namespace's clustering order");
        }
        previous = item.getKey();
        if (found.put(item.getKey(), item.getValue()) != null) {
          failure.accept("record " + where(r, item.getKey()) + ": item returned twice");
        }
      }
      token = page.getNextPageToken();
    } while (!token.isEmpty() && ++pages < MAX_PAGES);
    return found;
  }

  private boolean inOrder(KvModel.RecordKey r, ByteString before, ByteString after) {
    int c = KvModel.BYTES.compare(before, after);
    return descending.contains(r.namespace()) ? c > 0 : c < 0;
  }

  private static String where(KvModel.RecordKey r, ByteString key) {
    String id =
        r.id().length() > 40 ? r.id().substring(0, 40) + "...(" + r.id().length() + ")" : r.id();
    return r.namespace() + "/" + StoreModel.escaped(id) + (key == null ? "" : "/" + describe(key));
  }

  /** A value or key for a report line: its size and first bytes, or "absent". */
  static String describe(ByteString v) {
    if (v == null) {
      return "absent";
    }
    String s = v.size() <= 16 ? v.toStringUtf8() : v.substring(0, 16).toStringUtf8() + "...";
    return v.size() + " bytes (" + StoreModel.escaped(s) + ")";
  }
}
