package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/** The server's packages depend one way: the JDK's {@code jdeps} reads the compiled classes. */
class PackageDependenciesTest {

  private static final Pattern EDGE =
      Pattern.compile(
          "^\\s+(io\\.varve\\.server[\\w.]*)\\s+->\\s+(io\\.varve\\.server[\\w.]*)\\s",
          Pattern.MULTILINE);

  /** An edge from a package of the server to one of the storage module. */
  private static final Pattern STORAGE_EDGE =
      Pattern.compile(
          "^\\s+(io\\.varve\\.server[\\w.]*)\\s+->\\s+(io\\.varve\\.cassandra[\\w.]*)\\s",
          Pattern.MULTILINE);

  @Test
  void no_package_of_the_server_depends_on_itself_through_others() throws Exception {
    Map<String, Set<String>> uses = dependencies();

    assertThat(uses)
        .as("jdeps found the server's packages")
        .containsKeys("io.varve.server.transport", "io.varve.server.dataplane");
    List<String> cycles = new ArrayList<>();
    for (String from : uses.keySet()) {
      for (String to : uses.get(from)) {
        if (reachable(uses, to).contains(from)) {
          cycles.add(from + " -> " + to + " -> ... -> " + from);
        }
      }
    }
    assertThat(cycles).isEmpty();
  }

  @Test
  void the_error_mapping_and_request_times_depend_on_no_other_package_of_the_server()
      throws Exception {
    Map<String, Set<String>> uses = dependencies();

    assertThat(uses.getOrDefault("io.varve.server.error", Set.of())).isEmpty();
    assertThat(uses.getOrDefault("io.varve.server.request", Set.of())).isEmpty();
  }

  @Test
  void the_handlers_of_both_services_reach_the_storage_through_cores_contracts_only()
      throws Exception {
    Map<String, Set<String>> storage = dependencies(STORAGE_EDGE);

    assertThat(storage)
        .as("jdeps found the wiring's use of the storage")
        .containsKey("io.varve.server");
    for (String handlers :
        List.of(
            "io.varve.server.dataplane",
            "io.varve.server.kv",
            "io.varve.server.controlplane",
            "io.varve.server.buffer",
            "io.varve.server.index",
            "io.varve.server.handshake")) {
      assertThat(storage.getOrDefault(handlers, Set.of())).as(handlers).isEmpty();
    }
  }

  /** Each package of the server and the other packages of the server it uses. */
  private static Map<String, Set<String>> dependencies() throws Exception {
    return dependencies(EDGE);
  }

  /** Each package of the server and the packages matching {@code edges}' second group it uses. */
  private static Map<String, Set<String>> dependencies(Pattern edges) throws Exception {
    Path classes =
        Path.of(VarveServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter out = new StringWriter();
    int status =
        jdeps.run(
            new PrintWriter(out),
            new PrintWriter(out),
            "-verbose:package",
            "-filter:none",
            classes.toString());
    assertThat(status).as(out.toString()).isZero();
    Map<String, Set<String>> uses = new TreeMap<>();
    Matcher edge = edges.matcher(out.toString());
    while (edge.find()) {
      Set<String> used = uses.computeIfAbsent(edge.group(1), p -> new TreeSet<>());
      if (!edge.group(1).equals(edge.group(2))) {
        used.add(edge.group(2));
      }
    }
    return uses;
  }

  private static Set<String> reachable(Map<String, Set<String>> uses, String from) {
    Set<String> seen = new HashSet<>();
    List<String> next = new ArrayList<>(List.of(from));
    while (!next.isEmpty()) {
      for (String used : uses.getOrDefault(next.remove(next.size() - 1), Set.of())) {
        if (seen.add(used)) {
          next.add(used);
        }
      }
    }
    return seen;
  }
}
