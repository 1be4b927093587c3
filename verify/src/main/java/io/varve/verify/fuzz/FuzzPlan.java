package io.varve.verify.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.verify.fuzz.FuzzCase.Kind;
import io.varve.verify.fuzz.FuzzCase.Transport;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.Tuple;
import net.jqwik.api.sessions.JqwikSession;

/**
 * The requests of a fuzz run, drawn from jqwik arbitraries with a {@link Random} of the run's seed:
 * the same seed and world give the same requests, in the same order, whatever the server answers.
 * Each draw is a step of one or more requests (a sequence is several).
 */
public final class FuzzPlan {

  private static final int GEN_SIZE = 1000;
  private static final List<String> RPC_NAMES =
      List.of(
          "CreateNamespace",
          "GetNamespace",
          "ListNamespaces",
          "UpdateNamespace",
          "BackfillIndex",
          "WriteEventRecordsSync",
          "WriteEventRecords",
          "ReadEventRecords",
          "SearchEventRecords",
          "AggregateEventRecords",
          "PutItems",
          "GetItems",
          "DeleteItems",
          "MutateItems",
          "ScanItems",
          "Handshake");

  private static final Arbitrary<JsonMutations.Mutation> JSON_MUTATIONS = JsonMutations.mutations();
  private static final Arbitrary<ProtoMutations.Mutation> PROTO_MUTATIONS =
      ProtoMutations.mutations();

  private final FuzzWorld world;
  private final boolean grpc;
  private final ApiGrammar grammar;
  private final KvSequences kvSequences;
  private final RawRequests raw;
  private final List<HostileSizes.Sized> sizes;
  private final Random random;
  private final RandomGenerator<List<FuzzCase>> steps;
  private final List<FuzzCase> pending = new ArrayList<>();
  private final Map<String, Arbitrary<FuzzCase>> validByRpc = new java.util.HashMap<>();
  private final Map<String, Arbitrary<FuzzCase>> mutatedByRpc = new java.util.HashMap<>();

  /**
   * @param grpc whether requests are also sent over gRPC (each drawn request goes over one of the
   *     two; without it, all go over HTTP/JSON)
   */
  public FuzzPlan(FuzzWorld world, long seed, boolean grpc) {
    this(world, seed, grpc, world::baseTime);
  }

  /**
   * @param clock when KeyValue idempotency tokens are generated: {@link Instant#now} for a run (the
   *     server refuses tokens older than ten minutes); the one-argument constructor generates them
   *     all at the world's base time, so that two plans of one seed are equal byte for byte
   */
  public FuzzPlan(
      FuzzWorld world, long seed, boolean grpc, java.util.function.Supplier<Instant> clock) {
    this.world = world;
    this.grpc = grpc;
    this.grammar = new ApiGrammar(world, clock);
    this.kvSequences = new KvSequences(world, grammar.kv(), grammar);
    this.sizes = HostileSizes.all(world, grammar.kv());
    this.random = new Random(seed);
    this.raw = new RawRequests(world, grammar, grpc, this::rpcs);
    synchronized (JQWIK) {
      if (!JqwikSession.isActive()) {
        JqwikSession.start();
      }
      this.steps = step().generator(GEN_SIZE);
    }
    for (String ns : world.initialNamespaces()) {
      Message create = ApiGrammar.initialNamespace(world, ns);
      pending.add(json("CreateNamespace", Kind.SEQUENCE, "the run's namespace " + ns, create));
    }
  }

  /** The next request of the run. Call from one thread. */
  public FuzzCase next() {
    while (pending.isEmpty()) {
      synchronized (JQWIK) {
        pending.addAll(steps.next(random).value());
      }
    }
    return pending.remove(0);
  }

  /**
   * jqwik keeps the stores of its memoized generators in one registry per JVM that is not safe for
   * threads (two streams drawing at once failed in it): plans of concurrent streams draw, start and
   * end their sessions one at a time. A plan's draws depend on its own seed only, so the order in
   * which streams take turns changes nothing they draw.
   */
  private static final Object JQWIK = new Object();

  /** Ends this thread's jqwik session; the thread's plans may not draw afterwards. */
  public static void finishSession() {
    synchronized (JQWIK) {
      JqwikSession.finish();
    }
  }

  private Arbitrary<List<FuzzCase>> step() {
    return Arbitraries.frequencyOf(
        Tuple.of(
            30, rpcs().flatMap(rpc -> validByRpc.computeIfAbsent(rpc, this::valid)).map(List::of)),
        Tuple.of(
            36,
            rpcs().flatMap(rpc -> mutatedByRpc.computeIfAbsent(rpc, this::mutated)).map(List::of)),
        Tuple.of(4, hostileSize().map(List::of)),
        Tuple.of(8, raw.garbage().map(List::of)),
        Tuple.of(6, raw.headers().map(List::of)),
        Tuple.of(3, overwriteSequence()),
        Tuple.of(2, hostileConfigSequence()),
        Tuple.of(1, sequence(kvSequences.overwrite())),
        Tuple.of(1, sequence(kvSequences.delete())),
        Tuple.of(1, sequence(kvSequences.mutate())),
        Tuple.of(1, sequence(kvSequences.crossService())));
  }

  private Arbitrary<String> rpcs() {
    return Arbitraries.frequencyOf(
        Tuple.of(22, Arbitraries.just("WriteEventRecordsSync")),
        Tuple.of(8, Arbitraries.just("WriteEventRecords")),
        Tuple.of(14, Arbitraries.just("ReadEventRecords")),
        Tuple.of(10, Arbitraries.just("SearchEventRecords")),
        Tuple.of(10, Arbitraries.just("AggregateEventRecords")),
        Tuple.of(8, Arbitraries.just("CreateNamespace")),
        Tuple.of(5, Arbitraries.just("UpdateNamespace")),
        Tuple.of(6, Arbitraries.just("GetNamespace")),
        Tuple.of(4, Arbitraries.just("ListNamespaces")),
        Tuple.of(2, Arbitraries.just("BackfillIndex")),
        Tuple.of(14, Arbitraries.just("PutItems")),
        Tuple.of(10, Arbitraries.just("GetItems")),
        Tuple.of(6, Arbitraries.just("DeleteItems")),
        Tuple.of(6, Arbitraries.just("MutateItems")),
        Tuple.of(4, Arbitraries.just("ScanItems")),
        Tuple.of(2, Arbitraries.just("Handshake")));
  }

  private Arbitrary<Transport> transports() {
    return grpc ? Arbitraries.of(Transport.JSON, Transport.GRPC) : Arbitraries.just(Transport.JSON);
  }

  private Arbitrary<FuzzCase> valid(String rpc) {
    return Combinators.combine(grammar.request(rpc), transports(), Arbitraries.of(true, false))
        .as((m, t, snake) -> encode(rpc, Kind.VALID, "valid", t, m, snake));
  }

  private Arbitrary<FuzzCase> mutated(String rpc) {
    return Combinators.combine(grammar.request(rpc), transports(), JSON_MUTATIONS, PROTO_MUTATIONS)
        .as(
            (m, t, jm, pm) -> {
              if (t == Transport.GRPC) {
                ProtoMutations.Mutated mutated = ProtoMutations.apply(m, pm);
                if (mutated.message() != null && !safeNamespaceRequest(mutated.message())) {
                  return encode(
                      rpc,
                      Kind.VALID,
                      "valid (mutation " + mutated.description() + " withheld: too many slices)",
                      t,
                      m,
                      false);
                }
                return new FuzzCase(
                    rpc,
                    Kind.MUTATED,
                    mutated.description(),
                    t,
                    null,
                    null,
                    Map.of(),
                    mutated.bytes(),
                    mutated.message(),
                    m);
              }
              JsonNode tree = JsonMutations.JSON.valueToTree(parseTree(print(m, false)));
              JsonMutations.Mutated mutated = JsonMutations.apply(tree, jm);
              if (!NamespaceSafety.safe(lenientTree(mutated.json()))) {
                return encode(
                    rpc,
                    Kind.VALID,
                    "valid (mutation " + mutated.description() + " withheld: too many slices)",
                    t,
                    m,
                    false);
              }
              return jsonCase(
                  rpc,
                  Kind.MUTATED,
                  mutated.description(),
                  mutated.json().getBytes(StandardCharsets.UTF_8),
                  Map.of("Content-Type", "application/json"),
                  "/v1/" + rpc,
                  "POST",
                  intendedFromJson(rpc, mutated.json()),
                  m);
            });
  }

  private Arbitrary<FuzzCase> hostileSize() {
    return Combinators.combine(Arbitraries.of(sizes), transports())
        .as(
            (s, t) -> {
              if (s.request() != null) {
                return encode(
                    s.rpc(), Kind.HOSTILE_SIZE, s.description(), t, s.request().get(), false);
              }
              return t == Transport.GRPC
                  ? new FuzzCase(
                      s.rpc(),
                      Kind.HOSTILE_SIZE,
                      s.description(),
                      t,
                      null,
                      null,
                      Map.of(),
                      s.proto().get(),
                      null,
                      null)
                  : jsonCase(
                      s.rpc(),
                      Kind.HOSTILE_SIZE,
                      s.description(),
                      s.json().get().getBytes(StandardCharsets.UTF_8),
                      Map.of("Content-Type", "application/json"),
                      "/v1/" + s.rpc(),
                      "POST",
                      null,
                      null);
            });
  }

  /**
   * Create, write an event, overwrite the same identity with a value of another size (a large,
   * well-compressed value, then a small one, or the other way), then read the series.
   */
  private Arbitrary<List<FuzzCase>> overwriteSequence() {
    Arbitrary<Instant> times = Arbitraries.of(world.eventTimes().subList(0, 12));
    return Combinators.combine(
            Arbitraries.of(world.spareNamespaces()),
            Arbitraries.of(world.seriesIds()),
            times,
            Arbitraries.of(world.eventIds()),
            ApiGrammar.itemValues(),
            ApiGrammar.itemValues(),
            transports(),
            transports())
        .as(
            (ns, series, time, id, first, second, t1, t2) -> {
              List<FuzzCase> steps = new ArrayList<>();
              steps.add(
                  encode(
                      "CreateNamespace",
                      Kind.SEQUENCE,
                      "overwrite sequence: create",
                      t1,
                      ApiGrammar.initialNamespace(world, ns),
                      false));
              ByteString big = ByteString.copyFrom(new byte[10_000]);
              for (ByteString value :
                  new ByteString[] {big, first, second, ByteString.copyFromUtf8("small")}) {
                Event e =
                    Event.newBuilder()
                        .setTimeSeriesId(series)
                        .setEventTime(ApiGrammar.timestamp(time))
                        .setEventId(id)
                        .addEventItems(
                            EventItem.newBuilder()
                                .setEventItemKey(ByteString.copyFromUtf8("payload"))
                                .setEventItemValue(value))
                        .build();
                steps.add(
                    encode(
                        "WriteEventRecordsSync",
                        Kind.SEQUENCE,
                        "overwrite sequence: value of " + value.size() + " bytes",
                        t2,
                        WriteEventRecordsRequest.newBuilder().setNamespace(ns).addEvents(e).build(),
                        false));
                steps.add(
                    encode(
                        "ReadEventRecords",
                        Kind.SEQUENCE,
                        "overwrite sequence: read",
                        t1,
                        ReadEventRecordsRequest.newBuilder()
                            .setNamespace(ns)
                            .setTimeSeriesId(series)
                            .setTimeInterval(
                                HostileSizes.interval(world.readFrom(), world.readTo()))
                            .build(),
                        false));
              }
              return steps;
            });
  }

  /**
   * An update of the config namespace with a mutated configuration, then a read of it and a write
   * to it.
   */
  private Arbitrary<List<FuzzCase>> hostileConfigSequence() {
    return Combinators.combine(
            grammar.configurations(null),
            JSON_MUTATIONS,
            transports(),
            grammar.request("WriteEventRecordsSync"))
        .as(
            (config, mutation, t, write) -> {
              String ns = world.configNamespace();
              List<PersistenceConfiguration> withDataset = new ArrayList<>();
              for (PersistenceConfiguration c : config) {
                withDataset.add(
                    c.getId().equals("PRIMARY_STORAGE")
                        ? c.toBuilder()
                            .setPhysicalStorage(c.getPhysicalStorage().toBuilder().setDataset(ns))
                            .build()
                        : c);
              }
              UpdateNamespaceRequest update =
                  UpdateNamespaceRequest.newBuilder()
                      .setNamespace(ns)
                      .addAllPersistenceConfiguration(withDataset)
                      .build();
              List<FuzzCase> steps = new ArrayList<>();
              JsonNode tree = parseTree(print(update, false));
              // the mutation lands inside the configuration
              JsonMutations.Mutated mutated = JsonMutations.apply(tree, mutation);
              if (NamespaceSafety.safe(lenientTree(mutated.json()))) {
                steps.add(
                    jsonCase(
                        "UpdateNamespace",
                        Kind.SEQUENCE,
                        "hostile config: " + mutated.description(),
                        mutated.json().getBytes(StandardCharsets.UTF_8),
                        Map.of("Content-Type", "application/json"),
                        "/v1/UpdateNamespace",
                        "POST",
                        null,
                        update));
              }
              steps.add(
                  encode(
                      "UpdateNamespace",
                      Kind.SEQUENCE,
                      "hostile config: valid update",
                      t,
                      update,
                      false));
              steps.add(
                  encode(
                      "GetNamespace",
                      Kind.SEQUENCE,
                      "hostile config: get",
                      t,
                      GetNamespaceRequest.newBuilder().setNamespace(ns).build(),
                      false));
              steps.add(
                  encode(
                      "WriteEventRecordsSync",
                      Kind.SEQUENCE,
                      "hostile config: write",
                      t,
                      ((WriteEventRecordsRequest) write).toBuilder().setNamespace(ns).build(),
                      false));
              return steps;
            });
  }

  /** The steps of a KeyValue sequence, each sent over one of the transports. */
  private Arbitrary<List<FuzzCase>> sequence(Arbitrary<List<KvSequences.Step>> steps) {
    return Combinators.combine(steps, transports().list().ofSize(8))
        .as(
            (list, t) -> {
              List<FuzzCase> out = new ArrayList<>();
              for (int i = 0; i < list.size(); i++) {
                KvSequences.Step s = list.get(i);
                out.add(
                    encode(
                        s.rpc(),
                        Kind.SEQUENCE,
                        s.description(),
                        t.get(i % t.size()),
                        s.request(),
                        false));
              }
              return out;
            });
  }

  private static boolean safeNamespaceRequest(Message m) {
    if (m instanceof CreateNamespaceRequest c) {
      return NamespaceSafety.safe(c.getPersistenceConfigurationList());
    }
    if (m instanceof UpdateNamespaceRequest u) {
      return NamespaceSafety.safe(u.getPersistenceConfigurationList());
    }
    return true;
  }

  private FuzzCase encode(
      String rpc, Kind kind, String description, Transport t, Message m, boolean snake) {
    if (t == Transport.GRPC) {
      return new FuzzCase(rpc, kind, description, t, null, null, Map.of(), m.toByteArray(), m, m);
    }
    return jsonCase(
        rpc,
        kind,
        description,
        print(m, snake).getBytes(StandardCharsets.UTF_8),
        Map.of("Content-Type", "application/json"),
        "/v1/" + rpc,
        "POST",
        m,
        m);
  }

  private FuzzCase json(String rpc, Kind kind, String description, Message m) {
    return encode(rpc, kind, description, Transport.JSON, m, false);
  }

  static FuzzCase jsonCase(
      String rpc,
      Kind kind,
      String description,
      byte[] body,
      Map<String, String> headers,
      String path,
      String method,
      Message intended,
      Message origin) {
    return new FuzzCase(
        rpc, kind, description, Transport.JSON, path, method, headers, body, intended, origin);
  }

  static String print(Message m, boolean snake) {
    try {
      JsonFormat.Printer p = JsonFormat.printer().omittingInsignificantWhitespace();
      return (snake ? p.preservingProtoFieldNames() : p).print(m);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode parseTree(String json) {
    try {
      return JsonMutations.JSON.readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode lenientTree(String json) {
    try {
      return JsonMutations.JSON.readTree(json);
    } catch (Exception e) {
      return null;
    }
  }

  /** A mutated write as a server reading it leniently would see it, or null. */
  private static Message intendedFromJson(String rpc, String json) {
    if (!rpc.equals("WriteEventRecordsSync") && !rpc.equals("WriteEventRecords")) {
      return null;
    }
    JsonNode tree = lenientTree(json);
    if (tree == null) {
      return null;
    }
    try {
      WriteEventRecordsRequest.Builder b = WriteEventRecordsRequest.newBuilder();
      JsonFormat.parser().ignoringUnknownFields().merge(tree.toString(), b);
      return b.build();
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      return null;
    }
  }

  static List<String> rpcNames() {
    return RPC_NAMES;
  }
}
