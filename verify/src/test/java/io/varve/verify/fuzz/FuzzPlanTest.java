package io.varve.verify.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.sessions.JqwikSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The plan of a fuzz run: reproducible from its seed, and covering every RPC and kind of request.
 */
class FuzzPlanTest {

  static final FuzzWorld WORLD = new FuzzWorld("fz_t_", Instant.parse("2026-01-01T00:00:00Z"));

  @AfterEach
  void finish() {
    JqwikSession.finish();
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
    JqwikSession.finish();
    List<FuzzCase> b = draw(42, 400);
    JqwikSession.finish();
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
