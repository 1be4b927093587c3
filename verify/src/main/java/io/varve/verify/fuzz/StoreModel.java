package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.WriteEventRecordsQueuedResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a fuzz run expects the server to hold: every stored row (namespace, series, event time,
 * event id, item key) with the value of its last acknowledged write, the rows that were only ever
 * refused, and each namespace's configuration as last acknowledged. Rows and namespaces touched by
 * a request whose outcome is unknown (a 5xx or a dropped connection) are marked uncertain until an
 * acknowledged write settles them again.
 */
final class StoreModel {

  /** One stored row's identity. */
  record RowKey(
      String namespace,
      String series,
      long seconds,
      int nanos,
      String eventId,
      ByteString itemKey) {
    static RowKey of(String ns, Event e, ByteString key) {
      return new RowKey(
          ns,
          onTheWire(e.getTimeSeriesId()),
          e.getEventTime().getSeconds(),
          // the server keeps event times to the millisecond, truncating finer digits
          e.getEventTime().getNanos() - e.getEventTime().getNanos() % 1_000_000,
          onTheWire(e.getEventId()),
          key);
    }

    /**
     * The id as the server receives it over gRPC: protobuf's encoder writes an unpaired surrogate
     * as '?', so such an id is acknowledged under the replaced text (over JSON it is refused).
     */
    private static String onTheWire(String id) {
      return new String(id.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    Timestamp time() {
      return Timestamp.newBuilder().setSeconds(seconds).setNanos(nanos).build();
    }

    @Override
    public String toString() {
      // ids may hold any character: escaped, so a failure stays on one line of the key=value output
      return namespace
          + "/"
          + escaped(series)
          + "@"
          + com.google.protobuf.util.Timestamps.toString(time())
          + "/"
          + escaped(eventId)
          + "/"
          + escaped(itemKey.toString(StandardCharsets.UTF_8));
    }
  }

  /** What is known of one row. */
  static final class RowState {
    ByteString value;

    /**
     * Values of queued writes (WriteEventRecords) acknowledged before: drained after later writes,
     * any of them may be the stored one.
     */
    final Set<ByteString> queuedValues = new HashSet<>();

    boolean acknowledged;
    boolean uncertain;
    boolean refused;
    int lastCase = -1;

    /** Whether {@code stored} is a value the acknowledged writes allow. */
    boolean allows(ByteString stored) {
      return stored.equals(value) || queuedValues.contains(stored);
    }
  }

  /** What is known of one namespace. */
  static final class NamespaceState {
    Namespace acknowledged;
    boolean uncertain;
    int lastCase = -1;
  }

  final Map<RowKey, RowState> rows = new LinkedHashMap<>();
  final Map<String, NamespaceState> namespaces = new LinkedHashMap<>();

  /**
   * Namespaces that took a write the model cannot read: their rows are checked for presence only.
   */
  final Set<String> opaqueWrites = new HashSet<>();

  /** Namespaces that took queued writes: their rows are read again until the queue drained. */
  final Set<String> queuedNamespaces = new HashSet<>();

  /** The KeyValue items. */
  final KvModel kv = new KvModel();

  void record(int index, FuzzCase c, Outcome o) {
    switch (c.rpc()) {
      case "WriteEventRecordsSync", "WriteEventRecords" -> write(index, c, o);
      case "CreateNamespace", "UpdateNamespace" -> namespace(index, c, o);
      default -> kv.record(index, c, o);
    }
  }

  private void write(int index, FuzzCase c, Outcome o) {
    if (!(c.intended() instanceof WriteEventRecordsRequest request)) {
      if (c.origin() instanceof WriteEventRecordsRequest origin) {
        if (o.accepted()) {
          opaqueWrites.add(origin.getNamespace());
        } else {
          // refused whole: none of the rows it was made from may have been stored by it
          record(
              index,
              new FuzzCase(
                  c.rpc(),
                  c.kind(),
                  c.description(),
                  c.transport(),
                  c.path(),
                  c.method(),
                  c.headers(),
                  c.body(),
                  origin,
                  origin),
              o);
        }
      } else if (o.accepted()) {
        opaqueWrites.add("*");
      }
      return;
    }
    String ns = request.getNamespace();
    boolean queued = c.rpc().equals("WriteEventRecords");
    Set<Integer> written = new HashSet<>();
    if (o.accepted()) {
      List<Integer> indexes =
          queued
              ? Optional.ofNullable(
                      StoreModel.<WriteEventRecordsQueuedResponse>parse(
                          c, o, WriteEventRecordsQueuedResponse.newBuilder()))
                  .map(WriteEventRecordsQueuedResponse::getQueuedIndexesList)
                  .orElse(null)
              : Optional.ofNullable(
                      StoreModel.<WriteEventRecordsResponse>parse(
                          c, o, WriteEventRecordsResponse.newBuilder()))
                  .map(WriteEventRecordsResponse::getWrittenIndexesList)
                  .orElse(null);
      if (indexes == null) {
        opaqueWrites.add(ns);
        return;
      }
      written.addAll(indexes);
    }
    for (int i = 0; i < request.getEventsCount(); i++) {
      Event e = request.getEvents(i);
      for (EventItem item : e.getEventItemsList()) {
        RowState s =
            rows.computeIfAbsent(RowKey.of(ns, e, item.getEventItemKey()), k -> new RowState());
        if (o.serverFault()) {
          s.uncertain = true;
        } else if (written.contains(i)) {
          if (queued) {
            s.queuedValues.add(item.getEventItemValue());
            queuedNamespaces.add(ns);
          }
          s.value = item.getEventItemValue();
          s.acknowledged = true;
          s.uncertain = false;
        } else {
          s.refused = true;
        }
        s.lastCase = index;
      }
    }
  }

  private void namespace(int index, FuzzCase c, Outcome o) {
    String ns = namespaceOf(c);
    if (ns == null) {
      if (o.accepted()) {
        // accepted without the fuzzer knowing the name: read it from the answer
        Namespace answer = parse(c, o, Namespace.newBuilder());
        if (answer != null) {
          NamespaceState s =
              namespaces.computeIfAbsent(answer.getNamespace(), k -> new NamespaceState());
          s.acknowledged = answer;
          s.uncertain = false;
          s.lastCase = index;
        }
      } else if (o.serverFault() && c.origin() != null) {
        // the request was made from a valid one: the server may have read that namespace from it
        String origin =
            (String)
                c.origin().getField(c.origin().getDescriptorForType().findFieldByName("namespace"));
        namespaces.computeIfAbsent(origin, k -> new NamespaceState()).uncertain = true;
      }
      return;
    }
    NamespaceState s = namespaces.computeIfAbsent(ns, k -> new NamespaceState());
    if (o.accepted()) {
      Namespace answer = parse(c, o, Namespace.newBuilder());
      s.acknowledged = answer;
      s.uncertain = answer == null;
      s.lastCase = index;
    } else if (o.serverFault()) {
      s.uncertain = true;
      s.lastCase = index;
    }
  }

  private static String namespaceOf(FuzzCase c) {
    if (c.intended() != null) {
      var f = c.intended().getDescriptorForType().findFieldByName("namespace");
      return f == null ? null : (String) c.intended().getField(f);
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  static <T extends Message> T parse(FuzzCase c, Outcome o, Message.Builder builder) {
    try {
      if (c.transport() == FuzzCase.Transport.GRPC) {
        builder.mergeFrom(o.body());
      } else {
        JsonFormat.parser()
            .ignoringUnknownFields()
            .merge(new String(o.body(), StandardCharsets.UTF_8), builder);
      }
      return (T) builder.build();
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      return null;
    }
  }

  /** A text with control characters, backslash and non-ASCII written as Java escapes. */
  static String escaped(String text) {
    StringBuilder out = new StringBuilder();
    text.chars()
        .forEach(
            c -> {
              if (c < 0x20 || c >= 0x7f || c == '\\') {
                out.append(String.format("\\u%04x", c));
              } else {
                out.append((char) c);
              }
            });
    return out.toString();
  }
}
