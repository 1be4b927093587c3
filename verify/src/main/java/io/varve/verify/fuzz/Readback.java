package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import com.google.protobuf.util.Timestamps;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeInterval;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * After a run, reads back through the API everything the run touched and compares it with the
 * {@link StoreModel}: every acknowledged row present with its last acknowledged value, no row that
 * was only ever refused, every namespace's configuration and version as last acknowledged, and no
 * namespace that was never acknowledged.
 */
final class Readback {

  /** How long queued writes (WriteEventRecords) are given to drain before a row is reported. */
  static final Duration QUEUE_DRAIN = Duration.ofSeconds(30);

  private final ApiClient client;
  private final StoreModel model;
  private final Consumer<String> failure;
  int rowsChecked;
  int namespacesChecked;
  int reads;
  int itemsChecked;

  Readback(ApiClient client, StoreModel model, Consumer<String> failure) {
    this.client = client;
    this.model = model;
    this.failure = failure;
  }

  void run(List<String> addressedNamespaces, java.util.Set<String> descending) {
    checkNamespaces(addressedNamespaces);
    checkRows();
    KvReadback kv = new KvReadback(client, model.kv, descending, failure);
    kv.run();
    itemsChecked = kv.itemsChecked;
    reads += kv.reads;
  }

  private void checkNamespaces(List<String> addressed) {
    TreeSet<String> names = new TreeSet<>(addressed);
    names.addAll(model.namespaces.keySet());
    for (String ns : names) {
      StoreModel.NamespaceState s = model.namespaces.get(ns);
      if (s != null && s.uncertain) {
        continue;
      }
      Outcome o =
          client.postJson(
              "GetNamespace", print(GetNamespaceRequest.newBuilder().setNamespace(ns).build()));
      namespacesChecked++;
      boolean acknowledged = s != null && s.acknowledged != null;
      if (!acknowledged) {
        // absent (404), or a name the server refuses to look up (400): either way not stored
        if (o.accepted() || o.serverFault()) {
          failure.accept(
              "namespace "
                  + ns
                  + ": no create was acknowledged, but GetNamespace answered "
                  + o.status()
                  + " "
                  + text(o));
        }
        continue;
      }
      if (!o.accepted()) {
        failure.accept(
            "namespace "
                + ns
                + ": acknowledged (case "
                + s.lastCase
                + "), GetNamespace answered "
                + o.status()
                + " "
                + text(o));
        continue;
      }
      Namespace stored = parseNamespace(o);
      if (stored == null) {
        failure.accept("namespace " + ns + ": GetNamespace answer does not parse: " + text(o));
        continue;
      }
      if (stored.getVersion() != s.acknowledged.getVersion()
          || !stored
              .getPersistenceConfigurationList()
              .equals(s.acknowledged.getPersistenceConfigurationList())) {
        failure.accept(
            "namespace "
                + ns
                + ": stored version "
                + stored.getVersion()
                + " configuration "
                + oneLine(stored.getPersistenceConfigurationList().toString())
                + ", but the last acknowledged (case "
                + s.lastCase
                + ") was version "
                + s.acknowledged.getVersion()
                + " configuration "
                + oneLine(s.acknowledged.getPersistenceConfigurationList().toString()));
      }
    }
  }

  private void checkRows() {
    // one read per (namespace, series, event time): narrow, so no read meets a partition limit
    Map<String, List<StoreModel.RowKey>> byRead = new LinkedHashMap<>();
    for (StoreModel.RowKey k : model.rows.keySet()) {
      byRead
          .computeIfAbsent(
              k.namespace() + '\u0000' + k.series() + '\u0000' + k.seconds() + '\u0000' + k.nanos(),
              x -> new ArrayList<>())
          .add(k);
    }
    long drainDeadline = System.nanoTime() + QUEUE_DRAIN.toNanos();
    for (List<StoreModel.RowKey> keys : byRead.values()) {
      rowsChecked += keys.size();
      boolean queued = model.queuedNamespaces.contains(keys.get(0).namespace());
      List<String> found = new ArrayList<>();
      checkRows(keys, found::add);
      // queued writes are acknowledged before they are stored: read again until they drained
      while (!found.isEmpty() && queued && System.nanoTime() < drainDeadline) {
        sleep();
        found.clear();
        checkRows(keys, found::add);
      }
      found.forEach(failure);
    }
  }

  /** Checks the rows of one (namespace, series, event time). */
  private void checkRows(List<StoreModel.RowKey> keys, Consumer<String> failure) {
    StoreModel.RowKey first = keys.get(0);
    boolean anyAcknowledged = keys.stream().anyMatch(k -> model.rows.get(k).acknowledged);
    Map<StoreModel.RowKey, ByteString> found = read(first, anyAcknowledged, failure);
    if (found == null) {
      return;
    }
    boolean opaque =
        model.opaqueWrites.contains(first.namespace()) || model.opaqueWrites.contains("*");
    for (StoreModel.RowKey k : keys) {
      StoreModel.RowState s = model.rows.get(k);
      if (s.uncertain) {
        continue;
      }
      ByteString value = found.get(k);
      if (s.acknowledged) {
        if (value == null) {
          failure.accept(
              "row " + k + ": acknowledged (last by case " + s.lastCase + ") but not found");
        } else if (!opaque && !s.allows(value)) {
          failure.accept(
              "row "
                  + k
                  + ": stored value of "
                  + value.size()
                  + " bytes "
                  + preview(value)
                  + ", but the last acknowledged write (case "
                  + s.lastCase
                  + ") was "
                  + s.value.size()
                  + " bytes "
                  + preview(s.value));
        }
      } else if (value != null && !opaque) {
        failure.accept(
            "row "
                + k
                + ": only ever refused (last by case "
                + s.lastCase
                + "), yet stored with "
                + value.size()
                + " bytes "
                + preview(value));
      }
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The rows stored at one (namespace, series, event time), or null when the read failed. */
  private Map<StoreModel.RowKey, ByteString> read(
      StoreModel.RowKey at, boolean mustExist, Consumer<String> failure) {
    Map<StoreModel.RowKey, ByteString> found = new HashMap<>();
    com.google.protobuf.Timestamp end;
    try {
      end = Timestamps.add(at.time(), com.google.protobuf.util.Durations.fromMillis(1));
    } catch (RuntimeException e) {
      return found;
    }
    String token = "";
    do {
      ReadEventRecordsRequest.Builder r =
          ReadEventRecordsRequest.newBuilder()
              .setNamespace(at.namespace())
              .setTimeSeriesId(at.series())
              .setPageSize(1000)
              .setTimeInterval(TimeInterval.newBuilder().setStart(at.time()).setEnd(end))
              .setPageToken(token);
      Outcome o = client.postJson("ReadEventRecords", print(r.build()));
      reads++;
      if (!o.accepted()) {
        if (mustExist || o.serverFault()) {
          failure.accept(
              "read back "
                  + at.namespace()
                  + "/"
                  + at.series()
                  + "@"
                  + Timestamps.toString(at.time())
                  + " answered "
                  + o.status()
                  + " "
                  + text(o));
        }
        return null;
      }
      ReadEventRecordsResponse page = parseJson(o, ReadEventRecordsResponse.newBuilder());
      if (page == null) {
        failure.accept("read back " + at + ": answer does not parse: " + text(o));
        return null;
      }
      for (Event e : page.getEventsList()) {
        for (EventItem item : e.getEventItemsList()) {
          found.put(
              StoreModel.RowKey.of(at.namespace(), e, item.getEventItemKey()),
              item.getEventItemValue());
        }
      }
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return found;
  }

  private static Namespace parseNamespace(Outcome o) {
    return parseJson(o, Namespace.newBuilder());
  }

  /** A JSON answer as the message {@code builder} builds, or null when it does not parse. */
  @SuppressWarnings("unchecked")
  static <T extends com.google.protobuf.Message> T parseJson(
      Outcome o, com.google.protobuf.Message.Builder builder) {
    try {
      JsonFormat.parser()
          .ignoringUnknownFields()
          .merge(new String(o.body(), StandardCharsets.UTF_8), builder);
      return (T) builder.build();
    } catch (Exception e) {
      return null;
    }
  }

  private static String print(com.google.protobuf.Message m) {
    return FuzzPlan.print(m, false);
  }

  static String text(Outcome o) {
    String s = o.error() != null ? o.error() : new String(o.body(), StandardCharsets.UTF_8);
    return oneLine(s.length() > 300 ? s.substring(0, 300) + "..." : s);
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s+", " ");
  }

  private static String preview(ByteString v) {
    String s =
        v.size() <= 16
            ? v.toString(StandardCharsets.UTF_8)
            : v.substring(0, 16).toString(StandardCharsets.UTF_8) + "...";
    return "(" + s.replaceAll("\\p{Cntrl}", "?") + ")";
  }
}
