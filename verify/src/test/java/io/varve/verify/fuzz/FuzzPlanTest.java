package io.varve.verify.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The plan of a fuzz run: reproducible from its seed, and covering every RPC and kind of request.
 */
class FuzzPlanTest {

  static final FuzzWorld WORLD = new FuzzWorld("fz_t_", Instant.parse("2026-01-01T00:00:00Z"));

  @AfterEach
  void finish() {
    FuzzPlan.finishSession();
  }

  static List<FuzzCase> draw(long seed, int n) {
    FuzzPlan plan = new FuzzPlan(WORLD, seed, true);
    List<FuzzCase> cases = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cases.add(plan.next());
    }
    return cases;
  }

  @Test
  void the_same_seed_gives_the_same_requests_and_another_seed_others() {
    List<FuzzCase> a = draw(42, 400);
    FuzzPlan.finishSession();
    List<FuzzCase> b = draw(42, 400);
    FuzzPlan.finishSession();
    List<FuzzCase> c = draw(43, 400);
    for (int i = 0; i < a.size(); i++) {
      assertThat(b.get(i).body()).as("case " + i).isEqualTo(a.get(i).body());
      assertThat(b.get(i).description()).isEqualTo(a.get(i).description());
      assertThat(b.get(i).path()).isEqualTo(a.get(i).path());
    }
    long same = 0;
    for (int i = 0; i < a.size(); i++) {
      same += Arrays.equals(a.get(i).body(), c.get(i).body()) ? 1 : 0;
    }
    assertThat(same).as("cases equal under another seed").isLessThan(50);
  }

  @Test
  void plans_drawn_at_the_same_time_in_two_threads_are_those_drawn_one_after_the_other()
      throws Exception {
    List<FuzzCase> alone = draw(42, 300);
    FuzzPlan.finishSession();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Callable<List<FuzzCase>> stream =
          () -> {
            try {
              return draw(42, 300);
            } finally {
              FuzzPlan.finishSession();
            }
          };
      Future<List<FuzzCase>> a = threads.submit(stream);
      Future<List<FuzzCase>> b = threads.submit(stream);
      for (List<FuzzCase> together : List.of(a.get(), b.get())) {
        for (int i = 0; i < alone.size(); i++) {
          assertThat(together.get(i).body()).as("case " + i).isEqualTo(alone.get(i).body());
          assertThat(together.get(i).path()).isEqualTo(alone.get(i).path());
        }
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void the_streams_of_a_run_share_its_requests_with_seeds_and_namespaces_of_their_own() {
    ApiFuzzer.Settings run =
        new ApiFuzzer.Settings(
            URI.create("http://127.0.0.1:1"), 100, 10_001, true, "fz_r_", WORLD.baseTime(), 3);
    Set<String> prefixes = new HashSet<>();
    Set<Long> seeds = new HashSet<>();
    int requests = 0;
    for (int k = 0; k < 3; k++) {
      ApiFuzzer.Settings stream = run.stream(k);
      assertThat(stream.streams()).isEqualTo(1);
      assertThat(stream.baseTime()).isEqualTo(run.baseTime());
      prefixes.add(stream.prefix());
      seeds.add(stream.seed());
      requests += stream.requests();
      assertThat(stream.requests()).isBetween(3333, 3334);
    }
    assertThat(requests).isEqualTo(10_001);
    assertThat(seeds).containsExactlyInAnyOrder(100L, 101L, 102L);
    assertThat(prefixes).containsExactlyInAnyOrder("fz_r_0_", "fz_r_1_", "fz_r_2_");
    ApiFuzzer.Settings single =
        new ApiFuzzer.Settings(
            URI.create("http://127.0.0.1:1"), 100, 50, true, "fz_r_", WORLD.baseTime(), 1);
    assertThat(single.stream(0)).as("a run of one stream is its own stream").isEqualTo(single);
    assertThatThrownBy(() -> run.stream(3)).hasMessageContaining("stream: 3 (expected 0 to 2)");
    assertThatThrownBy(
            () ->
                new ApiFuzzer.Settings(
                    URI.create("http://127.0.0.1:1"), 1, 1, true, "p_", WORLD.baseTime(), 0))
        .hasMessageContaining("streams: 0 (expected 1 to 16)");
  }

  @Test
  void a_run_covers_every_rpc_every_kind_and_both_transports() {
    Set<String> rpcs = new HashSet<>();
    Set<FuzzCase.Kind> kinds = new HashSet<>();
    Set<FuzzCase.Transport> transports = new HashSet<>();
    Set<String> mutations = new HashSet<>();
    for (FuzzCase c : draw(7, 2000)) {
      rpcs.add(c.rpc());
      kinds.add(c.kind());
      transports.add(c.transport());
      if (c.kind() == FuzzCase.Kind.MUTATED && c.transport() == FuzzCase.Transport.JSON) {
        String d = c.description();
        mutations.add(
            d.startsWith("duplicate key")
                ? "duplicate key"
                : d.startsWith("unknown field") ? "unknown field" : d.split(" at | in ")[0]);
      }
    }
    assertThat(rpcs).containsExactlyInAnyOrderElementsOf(FuzzPlan.rpcNames());
    assertThat(kinds).containsExactlyInAnyOrder(FuzzCase.Kind.values());
    assertThat(transports).containsExactlyInAnyOrder(FuzzCase.Transport.values());
    assertThat(mutations)
        .contains(
            "wrong type",
            "out of range",
            "huge",
            "empty",
            "unicode",
            "negative",
            "nan",
            "deep nesting",
            "unknown field",
            "bad base64",
            "bad timestamp",
            "duplicate key");
  }

  @Test
  void namespace_configurations_that_would_need_too_many_slices_are_not_sent() {
    var tree = JsonMutations.JSON.createObjectNode();
    var config = tree.putArray("persistenceConfiguration").addObject().putObject("config");
    config
        .putObject("timePartition")
        .put("secondsPerTimeSlice", "1")
        .put("secondsPerTimeBucket", "1");
    config.put("acceptLimit", "100000d");
    assertThat(NamespaceSafety.safe(tree)).isFalse();
    config.putObject("timePartition").put("secondsPerTimeSlice", 86400);
    assertThat(NamespaceSafety.safe(tree)).isFalse();
    config.put("acceptLimit", "36h");
    assertThat(NamespaceSafety.safe(tree)).isTrue();
    config.putObject("timePartition").put("secondsPerTimeSlice", "-1");
    assertThat(NamespaceSafety.safe(tree)).as("refused by the server anyway").isTrue();
  }
}
