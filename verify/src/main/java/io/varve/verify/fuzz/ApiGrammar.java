package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.IndexConfig;
import io.varve.api.timeseries.v1.LifecycleConfig;
import io.varve.api.timeseries.v1.LifecycleConfigs;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.QueueBuffering;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.RetentionConfig;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Well-formed requests of every RPC of the ControlPlane, TimeSeries and KeyValue services (the last
 * from {@link KvGrammar}): the structure comes from the protobuf descriptors ({@link
 * MessageArbitraries}), the values from the {@link FuzzWorld} and the documented rules, so that
 * most of them are accepted and do real work.
 */
final class ApiGrammar {

  private static final String KEY_VALUE = "varve.kv.v1.KeyValue";

  /** The RPCs, as named in {@code POST /v1/<Rpc>}, with the service serving each over gRPC. */
  static final Map<String, String> RPCS =
      Map.ofEntries(
          Map.entry("CreateNamespace", "varve.timeseries.v1.ControlPlane"),
          Map.entry("GetNamespace", "varve.timeseries.v1.ControlPlane"),
          Map.entry("ListNamespaces", "varve.timeseries.v1.ControlPlane"),
          Map.entry("UpdateNamespace", "varve.timeseries.v1.ControlPlane"),
          Map.entry("BackfillIndex", "varve.timeseries.v1.ControlPlane"),
          Map.entry("WriteEventRecordsSync", "varve.timeseries.v1.TimeSeries"),
          Map.entry("WriteEventRecords", "varve.timeseries.v1.TimeSeries"),
          Map.entry("ReadEventRecords", "varve.timeseries.v1.TimeSeries"),
          Map.entry("SearchEventRecords", "varve.timeseries.v1.TimeSeries"),
          Map.entry("AggregateEventRecords", "varve.timeseries.v1.TimeSeries"),
          Map.entry("PutItems", KEY_VALUE),
          Map.entry("GetItems", KEY_VALUE),
          Map.entry("DeleteItems", KEY_VALUE),
          Map.entry("MutateItems", KEY_VALUE),
          Map.entry("ScanItems", KEY_VALUE),
          Map.entry("Handshake", KEY_VALUE));

  /** Item keys the indexed namespace maps, with the kind of value each takes. */
  static final List<String> INDEXED_KEYS =
      List.of("deviceType", "duration", "enabled", "note", "score");

  private static final String P = "varve.timeseries.v1.";

  private final FuzzWorld world;
  private final MessageArbitraries grammar = new MessageArbitraries();
  private final KvGrammar kv;

  ApiGrammar(FuzzWorld world, java.util.function.Supplier<Instant> clock) {
    this.world = world;
    this.kv = new KvGrammar(world, clock);
    grammar
        .override(P + "WriteEventRecordsRequest.namespace", namespaces())
        .override(P + "WriteEventRecordsRequest.events", events())
        .override(P + "ReadEventRecordsRequest.namespace", namespaces())
        .override(P + "ReadEventRecordsRequest.time_series_id", Arbitraries.of(world.seriesIds()))
        .override(P + "ReadEventRecordsRequest.time_interval", intervals())
        .override(P + "ReadEventRecordsRequest.page_size", optionalInt(1, 1000))
        .override(P + "ReadEventRecordsRequest.total_record_limit", optionalInt(1, 5000))
        .override(P + "ReadEventRecordsRequest.page_token", Arbitraries.just(null))
        .override(P + "ReadEventRecordsRequest.event_filters", filters())
        .override(P + "SearchEventRecordsRequest.namespace", namespaces())
        .override(P + "SearchEventRecordsRequest.time_interval", intervals())
        .override(P + "SearchEventRecordsRequest.page_size", optionalInt(1, 1000))
        .override(P + "SearchEventRecordsRequest.total_record_limit", optionalInt(1, 5000))
        .override(P + "SearchEventRecordsRequest.page_token", Arbitraries.just(null))
        .override(P + "AggregateEventRecordsRequest.namespace", namespaces())
        .override(P + "AggregateEventRecordsRequest.time_interval", intervals())
        .override(P + "DistinctAggregation.event_item_key", Arbitraries.of(INDEXED_KEYS))
        .override(P + "DistinctAggregation.page_size", optionalInt(1, 1000))
        .override(P + "DistinctAggregation.page_token", Arbitraries.just(null))
        .override(
            P + "CountByTimeAggregation.bucket_width",
            Arbitraries.of(60L, 600L, 3600L).map(s -> Duration.newBuilder().setSeconds(s).build()))
        .override(P + "EqualsQuery.event_item_key", indexedKeys())
        .override(P + "EqualsQuery.event_item_value", itemValuesSmall())
        .override(P + "RangeQuery.event_item_key", indexedKeys())
        .override(
            P + "RangeBound.event_item_value",
            Arbitraries.of("0", "5", "12", "x", "").map(ByteString::copyFromUtf8))
        .override(P + "BooleanQuery.operator", Arbitraries.of("AND", "OR", "NOT", ""))
        .override(P + "CreateNamespaceRequest.namespace", namespaces())
        .override(P + "UpdateNamespaceRequest.namespace", namespaces())
        .override(
            P + "UpdateNamespaceRequest.expected_version",
            Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.just(null)),
                Tuple.of(1, Arbitraries.longs().between(0, 20))))
        .override(P + "GetNamespaceRequest.namespace", namespaces())
        .override(P + "BackfillIndexRequest.namespace", namespaces())
        .override(P + "BackfillIndexRequest.time_interval", intervals());
    grammar.override(
        P + "CreateNamespaceRequest.persistence_configuration", Arbitraries.just(null));
    grammar.override(
        P + "UpdateNamespaceRequest.persistence_configuration", Arbitraries.just(null));
  }

  private final Map<String, Arbitrary<Message>> requests = new java.util.HashMap<>();

  /** Well-formed requests of one RPC. */
  Arbitrary<Message> request(String rpc) {
    return requests.computeIfAbsent(rpc, this::build);
  }

  private Arbitrary<Message> build(String rpc) {
    return switch (rpc) {
      case "CreateNamespace" ->
          Combinators.combine(
                  grammar.of(CreateNamespaceRequest.getDefaultInstance()), configurations(null))
              .as((r, c) -> withConfig(r, c));
      case "UpdateNamespace" ->
          Combinators.combine(
                  grammar.of(UpdateNamespaceRequest.getDefaultInstance()), configurations(null))
              .as((r, c) -> withConfig(r, c));
      case "GetNamespace" -> grammar.of(GetNamespaceRequest.getDefaultInstance()).map(m -> m);
      case "ListNamespaces" -> grammar.of(ListNamespacesRequest.getDefaultInstance()).map(m -> m);
      case "BackfillIndex" -> grammar.of(BackfillIndexRequest.getDefaultInstance()).map(m -> m);
      case "WriteEventRecordsSync", "WriteEventRecords" ->
          grammar.of(WriteEventRecordsRequest.getDefaultInstance()).map(m -> m);
      case "ReadEventRecords" ->
          grammar.of(ReadEventRecordsRequest.getDefaultInstance()).map(m -> m);
      case "SearchEventRecords" ->
          grammar.of(SearchEventRecordsRequest.getDefaultInstance()).map(m -> m);
      case "AggregateEventRecords" ->
          grammar.of(AggregateEventRecordsRequest.getDefaultInstance()).map(m -> m);
      default -> kv.request(rpc);
    };
  }

  KvGrammar kv() {
    return kv;
  }

  private Message withConfig(Message request, List<PersistenceConfiguration> config) {
    Message.Builder b = request.toBuilder();
    var field = request.getDescriptorForType().findFieldByName("persistence_configuration");
    String ns =
        (String) request.getField(request.getDescriptorForType().findFieldByName("namespace"));
    for (PersistenceConfiguration c : config) {
      // The keyspace is the namespace's own (or absent, which means the same): a generated run
      // never
      // creates keyspaces outside its prefix.
      if (c.getId().equals("PRIMARY_STORAGE")
          && c.hasPhysicalStorage()
          && !c.getPhysicalStorage().getDataset().isEmpty()) {
        c =
            c.toBuilder()
                .setPhysicalStorage(c.getPhysicalStorage().toBuilder().setDataset(ns))
                .build();
      }
      b.addRepeatedField(field, c);
    }
    return b.build();
  }

  /** The configuration the run's namespaces are created with. */
  static CreateNamespaceRequest initialNamespace(FuzzWorld world, String ns) {
    if (world.kvNamespaces().contains(ns)) {
      return KvGrammar.initialNamespace(world, ns);
    }
    CreateNamespaceRequest.Builder b =
        CreateNamespaceRequest.newBuilder()
            .setNamespace(ns)
            .addPersistenceConfiguration(
                PersistenceConfiguration.newBuilder()
                    .setId("PRIMARY_STORAGE")
                    .setPhysicalStorage(
                        PhysicalStorage.newBuilder()
                            .setType("CASSANDRA")
                            .setCluster("local")
                            .setDataset(ns))
                    .setConfig(
                        StorageConfig.newBuilder()
                            .setTimePartition(
                                TimePartition.newBuilder()
                                    .setSecondsPerTimeSlice(86400)
                                    .setSecondsPerTimeBucket(3600)
                                    .setEventBuckets(4))
                            .setAcceptLimit(Duration.newBuilder().setSeconds(129600))));
    if (ns.equals(world.indexedNamespace())) {
      b.addPersistenceConfiguration(indexStorage(world));
    }
    return b.build();
  }

  private static PersistenceConfiguration indexStorage(FuzzWorld world) {
    return PersistenceConfiguration.newBuilder()
        .setId("INDEX_STORAGE")
        .setPhysicalStorage(
            PhysicalStorage.newBuilder()
                .setType("OPENSEARCH")
                .setCluster("local")
                .setDataset(world.indexDataset()))
        .setConfig(
            StorageConfig.newBuilder()
                .setTimePartition(TimePartition.newBuilder().setSecondsPerSlice(86400))
                .setIndexConfig(
                    IndexConfig.newBuilder()
                        .putFieldMapping("deviceType", "KEYWORD")
                        .putFieldMapping("duration", "INTEGER")
                        .putFieldMapping("enabled", "BOOLEAN")
                        .putFieldMapping("note", "TEXT")
                        .putFieldMapping("score", "DOUBLE")
                        .setRefreshInterval(Duration.newBuilder().setSeconds(1))))
        .build();
  }

  /**
   * Storage configurations within the documented rules, including moderately hostile ones (many
   * small buckets, the most event buckets, one-hour slices, long retention), but bounded so that a
   * namespace never asks for more than a day of one-hour slices: more would cost the server
   * thousands of tables, a separate concern from fuzzing.
   */
  Arbitrary<List<PersistenceConfiguration>> configurations(String ignored) {
    Arbitrary<Long> slice = Arbitraries.of(3600L, 7200L, 86400L, 604800L);
    Arbitrary<Long> bucket = Arbitraries.of(600L, 3600L, 7200L, 86400L);
    Arbitrary<Integer> eventBuckets = Arbitraries.of(1, 4, 16);
    Arbitrary<Long> accept = Arbitraries.of(3600L, 21600L, 86400L, 129600L, 604800L);
    Arbitrary<TimePartition> partition =
        Combinators.combine(slice, bucket, eventBuckets, Arbitraries.of(true, false))
            .as(
                (s, b, e, both) -> {
                  TimePartition.Builder t =
                      TimePartition.newBuilder().setSecondsPerTimeSlice(s).setEventBuckets(e);
                  long bucketWidth = Math.min(b, s);
                  if (both) {
                    t.setSecondPerTimeBucket(bucketWidth).setSecondsPerTimeBucket(bucketWidth);
                  } else {
                    t.setSecondsPerTimeBucket(bucketWidth);
                  }
                  return t.build();
                });
    Arbitrary<StorageConfig> config =
        Combinators.combine(
                partition,
                accept,
                Arbitraries.of("", "LOCAL", "GLOBAL"),
                Arbitraries.of("", "EVENTUAL", "STRONG"),
                Arbitraries.of(true, false))
            .as(
                (t, a, scope, target, queue) -> {
                  StorageConfig.Builder c =
                      StorageConfig.newBuilder()
                          .setTimePartition(t)
                          .setAcceptLimit(
                              Duration.newBuilder()
                                  .setSeconds(Math.min(a, 24 * t.getSecondsPerTimeSlice())))
                          .setConsistencyScope(scope)
                          .setConsistencyTarget(target);
                  if (queue) {
                    c.setQueueBuffering(
                        QueueBuffering.newBuilder()
                            .setCoalesce(Duration.newBuilder().setSeconds(2))
                            .setBufferCapacity(1 << 20));
                  }
                  return c.build();
                });
    Arbitrary<LifecycleConfigs> lifecycle =
        Arbitraries.of(0, 30, 365)
            .map(
                days ->
                    days == 0
                        ? LifecycleConfigs.getDefaultInstance()
                        : LifecycleConfigs.newBuilder()
                            .addLifecycleConfig(
                                LifecycleConfig.newBuilder()
                                    .setType("retention")
                                    .setConfig(
                                        RetentionConfig.newBuilder()
                                            .setCloseAfter(
                                                Duration.newBuilder().setSeconds(days * 86400L))
                                            .setDeleteAfter(
                                                Duration.newBuilder()
                                                    .setSeconds(days * 2 * 86400L))))
                            .build());
    Arbitrary<PersistenceConfiguration> primary =
        Combinators.combine(
                config,
                lifecycle,
                Arbitraries.of("CASSANDRA", "SCYLLADB"),
                Arbitraries.of(true, false))
            .as(
                (c, l, type, dataset) ->
                    PersistenceConfiguration.newBuilder()
                        .setId("PRIMARY_STORAGE")
                        .setPhysicalStorage(
                            PhysicalStorage.newBuilder()
                                .setType(type)
                                .setCluster("local")
                                .setDataset(dataset ? "keep" : ""))
                        .setConfig(c)
                        .setLifecycleConfigs(l)
                        .build());
    return Combinators.combine(primary, Arbitraries.of(true, false))
        .as(
            (p, index) -> {
              List<PersistenceConfiguration> list = new ArrayList<>();
              list.add(p);
              if (index) {
                list.add(indexStorage(world));
              }
              return list;
            });
  }

  private Arbitrary<String> namespaces() {
    return Arbitraries.frequencyOf(
        Tuple.of(8, Arbitraries.of(world.dataNamespaces())),
        Tuple.of(3, Arbitraries.just(world.indexedNamespace())),
        Tuple.of(2, Arbitraries.just(world.configNamespace())),
        Tuple.of(1, Arbitraries.of(world.spareNamespaces())),
        Tuple.of(1, Arbitraries.of(world.kvNamespaces())),
        Tuple.of(1, Arbitraries.just(world.prefix() + "absent")));
  }

  private Arbitrary<Timestamp> times() {
    return Arbitraries.of(world.eventTimes()).map(ApiGrammar::timestamp);
  }

  static Timestamp timestamp(Instant t) {
    return Timestamp.newBuilder().setSeconds(t.getEpochSecond()).setNanos(t.getNano()).build();
  }

  private Arbitrary<TimeInterval> intervals() {
    Arbitrary<Instant> start =
        Arbitraries.of(
            world.readFrom(),
            world.baseTime().minusSeconds(3600),
            world.baseTime().minusSeconds(600),
            world.baseTime().minusSeconds(40L * 86400));
    Arbitrary<Instant> end =
        Arbitraries.of(world.readTo(), world.baseTime(), world.baseTime().plusMillis(1));
    return Combinators.combine(start, end)
        .as(
            (s, e) ->
                TimeInterval.newBuilder().setStart(timestamp(s)).setEnd(timestamp(e)).build());
  }

  private Arbitrary<ByteString> indexedKeys() {
    return Arbitraries.of(INDEXED_KEYS).map(ByteString::copyFromUtf8);
  }

  private static Arbitrary<Integer> optionalInt(int min, int max) {
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.just(null)),
        Tuple.of(3, Arbitraries.integers().between(min, max)),
        Tuple.of(1, Arbitraries.of(min, max)));
  }

  private Arbitrary<List<io.varve.api.timeseries.v1.EventFilter>> filters() {
    Arbitrary<io.varve.api.timeseries.v1.EventFilter> filter =
        Combinators.combine(itemKeys(), itemValuesSmall())
            .as(
                (k, v) ->
                    io.varve.api.timeseries.v1.EventFilter.newBuilder()
                        .setMatchEventItemKey(k)
                        .setMatchEventItemValue(v)
                        .build());
    return Arbitraries.frequencyOf(
        Tuple.of(5, Arbitraries.just(List.of())), Tuple.of(1, filter.list().ofMaxSize(3)));
  }

  private Arbitrary<ByteString> itemKeys() {
    return Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.of(INDEXED_KEYS)),
            Tuple.of(2, Arbitraries.of("payload", "k\u00e9y", "a")),
            Tuple.of(1, Arbitraries.just("k".repeat(1024))))
        .map(ByteString::copyFromUtf8);
  }

  private Arbitrary<ByteString> itemValuesSmall() {
    return Arbitraries.of("ios", "android", "7", "12", "true", "quick brown fox", "", "\u2603")
        .map(ByteString::copyFromUtf8);
  }

  /**
   * Item values: small text, empty, random bytes, and a 10,000-byte run of zeros that compresses
   * well (stored compressed, then overwritten by a small value: the kind of overwrite a store must
   * get right), up to 64 KiB.
   */
  static Arbitrary<ByteString> itemValues() {
    return Arbitraries.frequencyOf(
        Tuple.of(
            16,
            Arbitraries.of(
                    "ios",
                    "android",
                    "7",
                    "12",
                    "-3",
                    "true",
                    "false",
                    "3.5",
                    "quick brown fox",
                    "small")
                .map(ByteString::copyFromUtf8)),
        Tuple.of(1, Arbitraries.just(ByteString.EMPTY)),
        Tuple.of(2, randomBytes(1, 300).map(ByteString::copyFrom)),
        Tuple.of(1, Arbitraries.just(ByteString.copyFrom(new byte[10_000]))),
        Tuple.of(
            1,
            Arbitraries.integers().between(1, 65536).map(n -> ByteString.copyFrom(new byte[n]))));
  }

  /**
   * Random bytes of a drawn length, filled from a drawn seed: one draw instead of one per byte
   * (generating per byte costs more than sending).
   */
  static Arbitrary<byte[]> randomBytes(int min, int max) {
    return Combinators.combine(Arbitraries.integers().between(min, max), Arbitraries.longs())
        .as(
            (n, seed) -> {
              byte[] b = new byte[n];
              new java.util.Random(seed).nextBytes(b);
              return b;
            });
  }

  private Arbitrary<EventItem> items() {
    return Combinators.combine(itemKeys(), itemValues())
        .as((k, v) -> EventItem.newBuilder().setEventItemKey(k).setEventItemValue(v).build());
  }

  private Arbitrary<Event> event() {
    Arbitrary<List<EventItem>> items =
        items().list().ofMinSize(1).ofMaxSize(4).map(ApiGrammar::distinctKeys);
    return Combinators.combine(
            Arbitraries.of(world.seriesIds()), times(), Arbitraries.of(world.eventIds()), items)
        .as(
            (series, time, id, list) ->
                Event.newBuilder()
                    .setTimeSeriesId(series)
                    .setEventTime(time)
                    .setEventId(id)
                    .addAllEventItems(list)
                    .build());
  }

  /**
   * Batches of 1..8 events, distinct identities within a batch (the order of duplicates is
   * unspecified).
   */
  private Arbitrary<List<Event>> events() {
    return event()
        .list()
        .ofMinSize(1)
        .ofMaxSize(8)
        .map(
            list -> {
              List<Event> out = new ArrayList<>();
              Set<String> seen = new HashSet<>();
              for (Event e : list) {
                if (seen.add(
                    e.getTimeSeriesId()
                        + '\u0000'
                        + e.getEventTime()
                        + '\u0000'
                        + e.getEventId())) {
                  out.add(e);
                }
              }
              return out;
            });
  }

  private static List<EventItem> distinctKeys(List<EventItem> items) {
    return distinctBy(items, EventItem::getEventItemKey);
  }

  /** The first of the elements of each key, in their order. */
  static <T> List<T> distinctBy(List<T> list, java.util.function.Function<T, ?> key) {
    List<T> out = new ArrayList<>();
    Set<Object> seen = new HashSet<>();
    for (T element : list) {
      if (seen.add(key.apply(element))) {
        out.add(element);
      }
    }
    return out;
  }

  /** A byte string of {@code n} UTF-8 characters, for sizes near the limits. */
  static ByteString utf8Bytes(int n) {
    return ByteString.copyFrom("v".repeat(n).getBytes(StandardCharsets.UTF_8));
  }

  FuzzWorld world() {
    return world;
  }
}
