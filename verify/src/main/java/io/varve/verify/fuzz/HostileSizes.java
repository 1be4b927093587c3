package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregationQuery;
import io.varve.api.timeseries.v1.BooleanQuery;
import io.varve.api.timeseries.v1.CountAggregation;
import io.varve.api.timeseries.v1.CountByTimeAggregation;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.EqualsQuery;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventFilter;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.IndexConfig;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchQuery;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Requests at and just over every documented limit (docs/limits.md,
 * docs/namespace-configuration.md, the API's comments): at the limit they must be served, over it
 * refused with a 4xx naming the limit, never a 5xx. Built only when drawn: some are tens of
 * megabytes.
 */
final class HostileSizes {

  private static final int MIB = 1 << 20;

  /** A request near a limit. */
  record Sized(
      String rpc,
      String description,
      Supplier<Message> request,
      Supplier<String> json,
      Supplier<byte[]> proto) {
    Sized(String rpc, String description, Supplier<Message> request) {
      this(rpc, description, request, null, null);
    }
  }

  private HostileSizes() {}

  static List<Sized> all(FuzzWorld w, KvGrammar kv) {
    String ns = w.dataNamespaces().get(0);
    String ix = w.indexedNamespace();
    Instant t = w.baseTime().minusSeconds(60);
    List<Sized> s = new ArrayList<>();
    for (int n : new int[] {1000, 1001}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              n + " events per write (limit 1000)",
              () ->
                  write(
                      ns,
                      n,
                      i ->
                          event(
                              "s1",
                              t.minusMillis(i),
                              "batch",
                              item("k", ByteString.copyFromUtf8("v" + i))))));
    }
    s.add(
        new Sized(
            "WriteEventRecordsSync",
            "0 events per write",
            () -> WriteEventRecordsRequest.newBuilder().setNamespace(ns).build()));
    for (int n : new int[] {256, 257}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              n + " items per event (limit 256)",
              () -> {
                Event.Builder e =
                    Event.newBuilder()
                        .setTimeSeriesId("s2")
                        .setEventTime(ApiGrammar.timestamp(t))
                        .setEventId("items");
                for (int i = 0; i < n; i++) {
                  e.addEventItems(item("k" + i, ByteString.copyFromUtf8("v")));
                }
                return WriteEventRecordsRequest.newBuilder().setNamespace(ns).addEvents(e).build();
              }));
    }
    for (int n : new int[] {1024, 1025}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              n + "-byte item key (limit 1024)",
              () ->
                  write(
                      ns,
                      1,
                      i ->
                          event(
                              "s3", t, "key", item("k".repeat(n), ByteString.copyFromUtf8("v"))))));
    }
    for (int n : new int[] {2 * MIB, 2 * MIB + 1}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              n + "-byte item value (limit 2097152)",
              () ->
                  write(
                      ns,
                      1,
                      i -> event("s0", t, "value", item("v", ByteString.copyFrom(new byte[n]))))));
    }
    for (int extra : new int[] {0, 1}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              (8 * MIB + extra) + " bytes of keys and values in one event (limit 8388608)",
              () -> {
                Event.Builder e =
                    Event.newBuilder()
                        .setTimeSeriesId("s1")
                        .setEventTime(ApiGrammar.timestamp(t))
                        .setEventId("big");
                for (int i = 0; i < 3; i++) {
                  e.addEventItems(item("k" + i, ByteString.copyFrom(new byte[2 * MIB])));
                }
                e.addEventItems(item("k3", ByteString.copyFrom(new byte[2 * MIB - 8 + extra])));
                return WriteEventRecordsRequest.newBuilder().setNamespace(ns).addEvents(e).build();
              }));
    }
    for (int n : new int[] {11, 17}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              n + " events of 2 MiB (" + (n * 2) + " MiB; request limit 32 MiB)",
              () ->
                  write(
                      ns,
                      n,
                      i ->
                          event(
                              "s" + (i % 4),
                              t.minusMillis(i),
                              "req",
                              item("v", ByteString.copyFrom(new byte[2 * MIB]))))));
    }
    for (String id : new String[] {"\u00e9".repeat(128), "\u00e9".repeat(129)}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              id.length() * 2 + "-byte timeSeriesId (limit 256)",
              () ->
                  write(ns, 1, i -> event(id, t, "sid", item("k", ByteString.copyFromUtf8("v"))))));
    }
    for (int n : new int[] {128, 129}) {
      s.add(
          new Sized(
              "WriteEventRecordsSync",
              n + "-byte eventId (limit 128)",
              () ->
                  write(
                      ns,
                      1,
                      i ->
                          event("s1", t, "i".repeat(n), item("k", ByteString.copyFromUtf8("v"))))));
    }
    for (int n : new int[] {0, 1000, 1001}) {
      s.add(
          new Sized(
              "ReadEventRecords",
              "pageSize " + n + " (1..1000)",
              () -> read(w, ns).setPageSize(n).build()));
    }
    s.add(
        new Sized(
            "ReadEventRecords",
            "totalRecordLimit 0",
            () -> read(w, ns).setTotalRecordLimit(0).build()));
    for (int n : new int[] {16, 17}) {
      s.add(
          new Sized(
              "ReadEventRecords",
              n + " event filters (limit 16)",
              () -> {
                ReadEventRecordsRequest.Builder r = read(w, ns);
                for (int i = 0; i < n; i++) {
                  r.addEventFilters(
                      EventFilter.newBuilder()
                          .setMatchEventItemKey(ByteString.copyFromUtf8("k" + i)));
                }
                return r.build();
              }));
    }
    s.add(
        new Sized(
            "ReadEventRecords",
            "interval 1970..9999",
            () ->
                read(w, ns)
                    .setTimeInterval(
                        interval(
                            Instant.parse("1970-01-01T00:00:00Z"),
                            Instant.parse("9999-12-31T23:59:59.999Z")))
                    .build()));
    s.add(
        new Sized(
            "ReadEventRecords",
            "empty interval",
            () -> read(w, ns).setTimeInterval(interval(t, t)).build()));
    for (int n : new int[] {48, 49}) {
      s.add(
          new Sized(
              "GetNamespace",
              n + "-character namespace name (limit 48)",
              () -> GetNamespaceRequest.newBuilder().setNamespace("n".repeat(n)).build()));
      s.add(
          new Sized(
              "CreateNamespace",
              n + "-character namespace name (limit 48), never created: its dataset is refused",
              () ->
                  CreateNamespaceRequest.newBuilder()
                      .setNamespace("n".repeat(n))
                      .addAllPersistenceConfiguration(
                          withDataset(
                              ApiGrammar.initialNamespace(w, ns).getPersistenceConfigurationList(),
                              "system_" + n))
                      .build()));
    }
    for (int n : new int[] {100, 101}) {
      s.add(
          new Sized(
              "SearchEventRecords",
              n + " queries in one boolean query (limit 100)",
              () -> search(w, ix, wide(n))));
    }
    for (int depth : new int[] {8, 9}) {
      s.add(
          new Sized(
              "SearchEventRecords",
              "boolean queries nested " + depth + " deep (limit 8)",
              () -> search(w, ix, deep(depth))));
    }
    // deeper than protobuf-java can encode on a normal stack: written out by hand
    s.add(
        new Sized(
            "SearchEventRecords",
            "boolean queries nested 3000 deep (limit 8)",
            null,
            () -> deepJson(w, ix, 3000),
            () -> deepProto(w, ix, 3000)));
    for (long seconds : new long[] {31L * 86400, 31L * 86400 + 1}) {
      s.add(
          new Sized(
              "SearchEventRecords",
              "search interval of " + seconds + "s (limit 31 days)",
              () ->
                  SearchEventRecordsRequest.newBuilder()
                      .setNamespace(ix)
                      .setTimeInterval(interval(w.baseTime().minusSeconds(seconds), w.baseTime()))
                      .build()));
    }
    for (int buckets : new int[] {10000, 10001}) {
      s.add(
          new Sized(
              "AggregateEventRecords",
              buckets + " count-by-time buckets (limit 10000)",
              () ->
                  AggregateEventRecordsRequest.newBuilder()
                      .setNamespace(ix)
                      .setTimeInterval(
                          interval(w.baseTime().minusSeconds(60L * buckets), w.baseTime()))
                      .setAggregationQuery(
                          AggregationQuery.newBuilder()
                              .setCount(CountAggregation.getDefaultInstance())
                              .setCountByTime(
                                  CountByTimeAggregation.newBuilder()
                                      .setBucketWidth(Duration.newBuilder().setSeconds(60))))
                      .build()));
    }
    for (int n : new int[] {256, 257}) {
      s.add(
          new Sized(
              "UpdateNamespace",
              n + " field mappings (limit 256), on the config namespace",
              () -> {
                List<PersistenceConfiguration> c =
                    new ArrayList<>(
                        ApiGrammar.initialNamespace(w, w.indexedNamespace())
                            .getPersistenceConfigurationList());
                PersistenceConfiguration index = c.get(1);
                IndexConfig.Builder ic = index.getConfig().getIndexConfig().toBuilder();
                for (int i = 0; i < n; i++) {
                  ic.putFieldMapping("f" + i, "KEYWORD");
                }
                c.set(
                    1,
                    index.toBuilder()
                        .setConfig(index.getConfig().toBuilder().setIndexConfig(ic))
                        .build());
                return UpdateNamespaceRequest.newBuilder()
                    .setNamespace(w.configNamespace())
                    .addAllPersistenceConfiguration(withDataset(c, w.configNamespace()))
                    .build();
              }));
    }
    for (int n : new int[] {256, 257}) {
      s.add(
          new Sized(
              "UpdateNamespace",
              n + "-byte field mapping key (limit 256)",
              () -> {
                List<PersistenceConfiguration> c =
                    new ArrayList<>(
                        ApiGrammar.initialNamespace(w, w.indexedNamespace())
                            .getPersistenceConfigurationList());
                PersistenceConfiguration index = c.get(1);
                IndexConfig ic =
                    index.getConfig().getIndexConfig().toBuilder()
                        .putFieldMapping("f".repeat(n), "TEXT")
                        .build();
                c.set(
                    1,
                    index.toBuilder()
                        .setConfig(index.getConfig().toBuilder().setIndexConfig(ic))
                        .build());
                return UpdateNamespaceRequest.newBuilder()
                    .setNamespace(w.configNamespace())
                    .addAllPersistenceConfiguration(withDataset(c, w.configNamespace()))
                    .build();
              }));
    }
    s.add(
        new Sized(
            "UpdateNamespace",
            "eventBuckets 64 and 65 (limit 64)",
            () ->
                UpdateNamespaceRequest.newBuilder()
                    .setNamespace(w.configNamespace())
                    .addAllPersistenceConfiguration(eventBuckets(w, 65))
                    .build()));
    s.add(
        new Sized(
            "UpdateNamespace",
            "eventBuckets 64 (limit 64)",
            () ->
                UpdateNamespaceRequest.newBuilder()
                    .setNamespace(w.configNamespace())
                    .addAllPersistenceConfiguration(eventBuckets(w, 64))
                    .build()));
    s.add(
        new Sized(
            "UpdateNamespace",
            "secondsPerTimeSlice 316224001 (limit 316224000)",
            () -> {
              List<PersistenceConfiguration> c =
                  withDataset(
                      ApiGrammar.initialNamespace(w, w.configNamespace())
                          .getPersistenceConfigurationList(),
                      w.configNamespace());
              PersistenceConfiguration p = c.get(0);
              var cfg = p.getConfig().toBuilder();
              cfg.getTimePartitionBuilder()
                  .setSecondsPerTimeSlice(316224001L)
                  .setSecondsPerTimeBucket(1);
              return UpdateNamespaceRequest.newBuilder()
                  .setNamespace(w.configNamespace())
                  .addPersistenceConfiguration(p.toBuilder().setConfig(cfg))
                  .build();
            }));
    // the fire-and-forget write validates as the durable one does
    for (Sized sized : List.copyOf(s)) {
      if (sized.rpc().equals("WriteEventRecordsSync") && sized.request() != null) {
        s.add(new Sized("WriteEventRecords", sized.description() + " (queued)", sized.request()));
      }
    }
    KvSizes.addTo(s, w, kv);
    return s;
  }

  private static List<PersistenceConfiguration> eventBuckets(FuzzWorld w, int n) {
    List<PersistenceConfiguration> c =
        withDataset(
            ApiGrammar.initialNamespace(w, w.configNamespace()).getPersistenceConfigurationList(),
            w.configNamespace());
    PersistenceConfiguration p = c.get(0);
    var cfg = p.getConfig().toBuilder();
    cfg.getTimePartitionBuilder().setEventBuckets(n);
    return List.of(p.toBuilder().setConfig(cfg).build());
  }

  private static List<PersistenceConfiguration> withDataset(
      List<PersistenceConfiguration> c, String dataset) {
    List<PersistenceConfiguration> out = new ArrayList<>();
    for (PersistenceConfiguration p : c) {
      out.add(
          p.getId().equals("PRIMARY_STORAGE")
              ? p.toBuilder()
                  .setPhysicalStorage(p.getPhysicalStorage().toBuilder().setDataset(dataset))
                  .build()
              : p);
    }
    return out;
  }

  private static SearchQuery equalsQuery() {
    return SearchQuery.newBuilder()
        .setEquals(
            EqualsQuery.newBuilder()
                .setEventItemKey(ByteString.copyFromUtf8("deviceType"))
                .setEventItemValue(ByteString.copyFromUtf8("ios")))
        .build();
  }

  private static SearchQuery wide(int n) {
    BooleanQuery.Builder b = BooleanQuery.newBuilder().setOperator("OR");
    for (int i = 0; i < n; i++) {
      b.addSearchQuery(equalsQuery());
    }
    return SearchQuery.newBuilder().setBooleanQuery(b).build();
  }

  private static SearchQuery deep(int depth) {
    SearchQuery q = equalsQuery();
    for (int i = 0; i < depth; i++) {
      q =
          SearchQuery.newBuilder()
              .setBooleanQuery(BooleanQuery.newBuilder().addSearchQuery(q))
              .build();
    }
    return q;
  }

  private static String deepJson(FuzzWorld w, String ns, int depth) {
    String shallow = FuzzPlan.print(search(w, ns, equalsQuery()), false);
    String equals = FuzzPlan.print(equalsQuery(), false);
    String open = "{\"booleanQuery\":{\"searchQuery\":[";
    String nested = open.repeat(depth) + equals + "]}}".repeat(depth);
    return shallow.replace(equals, nested);
  }

  private static byte[] deepProto(FuzzWorld w, String ns, int depth) {
    byte[] inner = equalsQuery().toByteArray();
    for (int i = 0; i < 2 * depth; i++) {
      inner = lengthDelimited(1, inner);
    }
    SearchEventRecordsRequest shallow = (SearchEventRecordsRequest) search(w, ns, equalsQuery());
    byte[] head = shallow.toBuilder().clearSearchQuery().build().toByteArray();
    byte[] tail = lengthDelimited(3, inner);
    byte[] out = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, out, head.length, tail.length);
    return out;
  }

  private static byte[] lengthDelimited(int field, byte[] value) {
    try {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(value.length + 8);
      com.google.protobuf.CodedOutputStream c =
          com.google.protobuf.CodedOutputStream.newInstance(bytes);
      c.writeByteArray(field, value);
      c.flush();
      return bytes.toByteArray();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Message search(FuzzWorld w, String ns, SearchQuery q) {
    return SearchEventRecordsRequest.newBuilder()
        .setNamespace(ns)
        .setTimeInterval(interval(w.baseTime().minusSeconds(3600), w.baseTime()))
        .setSearchQuery(q)
        .build();
  }

  private static ReadEventRecordsRequest.Builder read(FuzzWorld w, String ns) {
    return ReadEventRecordsRequest.newBuilder()
        .setNamespace(ns)
        .setTimeSeriesId("s0")
        .setTimeInterval(interval(w.readFrom(), w.readTo()));
  }

  static TimeInterval interval(Instant start, Instant end) {
    return TimeInterval.newBuilder()
        .setStart(ApiGrammar.timestamp(start))
        .setEnd(ApiGrammar.timestamp(end))
        .build();
  }

  private static EventItem item(String key, ByteString value) {
    return EventItem.newBuilder()
        .setEventItemKey(ByteString.copyFromUtf8(key))
        .setEventItemValue(value)
        .build();
  }

  private static Event event(String series, Instant time, String id, EventItem item) {
    return Event.newBuilder()
        .setTimeSeriesId(series)
        .setEventTime(ApiGrammar.timestamp(time))
        .setEventId(id)
        .addEventItems(item)
        .build();
  }

  private static WriteEventRecordsRequest write(
      String ns, int n, java.util.function.IntFunction<Event> events) {
    WriteEventRecordsRequest.Builder b = WriteEventRecordsRequest.newBuilder().setNamespace(ns);
    for (int i = 0; i < n; i++) {
      b.addEvents(events.apply(i));
    }
    return b.build();
  }
}
