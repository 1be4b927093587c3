package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.MatchRange;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a fuzz run expects the KeyValue namespaces to hold. Every write and delete is written with
 * its idempotency token's generation time, and of two mutations of one item the later generation
 * time stays, whatever the order they arrived in: so the model keeps, per record, every
 * acknowledged mutation with its time, and an item's expected state is that of the latest mutation
 * that addresses it (a tie between different mutations allows either). Mutations whose outcome is
 * unknown (a 5xx, a dropped connection) make the items they address unknown unless a later
 * acknowledged one settles them; an accepted request the model cannot read (a mutated JSON body)
 * makes its records opaque: their items are then not compared.
 */
final class KvModel {

  static final Comparator<ByteString> BYTES = ByteString.unsignedLexicographicalComparator();

  /** One record of one namespace. */
  record RecordKey(String namespace, String id) {}

  /** One acknowledged (or unknown) mutation of a record. */
  record Op(long micros, Predicate match, ByteString key, ByteString value, boolean unknown) {

    /** Whether the op addresses {@code k}: a put its key, a delete its predicate's keys. */
    boolean addresses(ByteString k) {
      if (match == null) {
        return key.equals(k);
      }
      return switch (match.getMatchCase()) {
        case MATCH_ALL -> true;
        case MATCH_KEYS -> match.getMatchKeys().getKeysList().contains(k);
        case MATCH_RANGE -> inRange(match.getMatchRange(), k);
        default -> false;
      };
    }

    private static boolean inRange(MatchRange r, ByteString k) {
      if (r.hasStart()) {
        int c = BYTES.compare(k, r.getStart());
        if (c < 0 || c == 0 && r.hasStartInclusive() && !r.getStartInclusive()) {
          return false;
        }
      }
      if (r.hasEnd()) {
        int c = BYTES.compare(k, r.getEnd());
        return c < 0 || c == 0 && r.hasEndInclusive() && r.getEndInclusive();
      }
      return true;
    }
  }

  /** What is known of one record. */
  static final class RecordState {
    final List<Op> ops = new ArrayList<>();

    /** Every key a request addressed with a put, acknowledged or not. */
    final Set<ByteString> keys = new LinkedHashSet<>();

    boolean opaque;
    int lastCase = -1;

    /**
     * The values the item may hold now ({@code null} standing for absent), or empty when unknown.
     */
    Optional<Set<ByteString>> expected(ByteString key) {
      long latest = Long.MIN_VALUE;
      for (Op op : ops) {
        if (!op.unknown() && op.addresses(key)) {
          latest = Math.max(latest, op.micros());
        }
      }
      Set<ByteString> values = new HashSet<>();
      for (Op op : ops) {
        if (!op.addresses(key) || op.micros() < latest) {
          continue;
        }
        if (op.unknown()) {
          return Optional.empty();
        }
        values.add(op.match() == null ? op.value() : null);
      }
      if (values.isEmpty()) {
        values.add(null);
      }
      return Optional.of(values);
    }
  }

  final Map<RecordKey, RecordState> records = new LinkedHashMap<>();

  /** Takes one KeyValue write's outcome into the model; reads change nothing. */
  void record(int index, FuzzCase c, Outcome o) {
    if (!Set.of("PutItems", "DeleteItems", "MutateItems").contains(c.rpc())) {
      return;
    }
    if (c.intended() != null) {
      if (o.refused()) {
        // refused whole: none of its puts may be stored, so their keys are checked for absence
        apply(index, c.intended(), false, true);
      } else {
        apply(index, c.intended(), o.serverFault(), false);
      }
    } else if (c.origin() != null) {
      // a body the model cannot read: taken, it may have written anything to its records
      apply(index, c.origin(), true, !o.serverFault());
      if (!o.refused()) {
        recordsOf(c.origin()).forEach(r -> records.get(r).opaque = true);
      }
    }
  }

  /**
   * Adds the request's mutations, acknowledged or of {@code unknown} outcome, or only the keys of
   * its puts ({@code keysOnly}).
   */
  private void apply(int index, Message request, boolean unknown, boolean keysOnly) {
    if (request instanceof PutItemsRequest p) {
      put(
          index,
          p.getNamespace(),
          p.getId(),
          p.getIdempotencyToken(),
          p.getItemsList(),
          unknown,
          keysOnly);
    } else if (request instanceof DeleteItemsRequest d) {
      delete(
          index,
          d.getNamespace(),
          d.getId(),
          d.getIdempotencyToken(),
          d.getPredicate(),
          unknown,
          keysOnly);
    } else if (request instanceof MutateItemsRequest m) {
      for (Mutation mu : m.getMutationsList()) {
        if (mu.hasPut()) {
          put(
              index,
              m.getNamespace(),
              mu.getId(),
              m.getIdempotencyToken(),
              mu.getPut().getItemsList(),
              unknown,
              keysOnly);
        } else {
          delete(
              index,
              m.getNamespace(),
              mu.getId(),
              m.getIdempotencyToken(),
              mu.getDelete().getPredicate(),
              unknown,
              keysOnly);
        }
      }
    }
  }

  private void put(
      int index,
      String ns,
      String id,
      IdempotencyToken token,
      List<Item> items,
      boolean unknown,
      boolean keysOnly) {
    RecordState s = state(ns, id, index);
    for (Item item : items) {
      s.keys.add(item.getKey());
      if (item.hasMetadata() && !keysOnly) {
        // a value the client says it compressed: what it decompresses to is not modelled
        s.opaque = true;
      }
      if (!keysOnly) {
        s.ops.add(new Op(micros(token), null, item.getKey(), item.getValue(), unknown));
      }
    }
  }

  private void delete(
      int index,
      String ns,
      String id,
      IdempotencyToken token,
      Predicate p,
      boolean unknown,
      boolean keysOnly) {
    RecordState s = state(ns, id, index);
    if (!keysOnly) {
      s.ops.add(new Op(micros(token), p, null, null, unknown));
    }
  }

  private RecordState state(String ns, String id, int index) {
    RecordState s = records.computeIfAbsent(new RecordKey(ns, id), k -> new RecordState());
    s.lastCase = index;
    return s;
  }

  private static List<RecordKey> recordsOf(Message request) {
    List<RecordKey> out = new ArrayList<>();
    if (request instanceof PutItemsRequest p) {
      out.add(new RecordKey(p.getNamespace(), p.getId()));
    } else if (request instanceof DeleteItemsRequest d) {
      out.add(new RecordKey(d.getNamespace(), d.getId()));
    } else if (request instanceof MutateItemsRequest m) {
      m.getMutationsList().forEach(mu -> out.add(new RecordKey(m.getNamespace(), mu.getId())));
    }
    return out;
  }

  /**
   * The token's generation time in microseconds, the precision the server writes with; saturated
   * for times no write can have (a mutated token), which then order after or before every other.
   */
  static long micros(IdempotencyToken token) {
    Timestamp t = token.getGenerationTime();
    try {
      return Math.addExact(Math.multiplyExact(t.getSeconds(), 1_000_000L), t.getNanos() / 1000);
    } catch (ArithmeticException e) {
      return t.getSeconds() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }
}
