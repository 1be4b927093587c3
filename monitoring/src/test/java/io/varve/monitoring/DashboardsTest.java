package io.varve.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dashboards as Grafana imports them, without a server: each a dashboard of the current JSON
 * model whose panels all query the Prometheus of its {@code datasource} variable, and whose queries
 * use only variables it declares. What the queries return is MonitoringIT's.
 */
class DashboardsTest {

  private static final Pattern VARIABLE =
      Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\[\\[(\\w+)(?::\\w+)?]]|\\$(\\w+)");

  private static final Set<String> BUILT_IN = Set.of("__rate_interval", "__interval", "__range");

  @Test
  void the_dashboards_cover_each_part_of_the_server() {
    assertThat(Monitoring.dashboardFiles().stream().map(f -> f.getFileName().toString()))
        .containsExactlyInAnyOrder(
            "varve-timeseries.json",
            "varve-keyvalue.json",
            "varve-buffers-admission.json",
            "varve-cassandra.json",
            "varve-workers.json",
            "varve-jvm.json");
  }

  @Test
  void each_dashboard_queries_the_prometheus_of_its_datasource_variable() {
    Set<String> uids = new HashSet<>();
    List<String> problems = new ArrayList<>();
    for (Path file : Monitoring.dashboardFiles()) {
      String name = file.getFileName().toString();
      JsonNode d = Monitoring.dashboard(file);
      assertThat(d.path("title").asText()).as(name + ": title").startsWith("Varve / ");
      assertThat(d.path("uid").asText()).as(name + ": uid").isEqualTo(name.replace(".json", ""));
      assertThat(uids.add(d.path("uid").asText())).as(name + ": a uid of its own").isTrue();
      assertThat(d.path("schemaVersion").asInt()).as(name + ": schemaVersion").isGreaterThan(36);
      assertThat(d.path("id").isNull()).as(name + ": no id (Grafana gives one)").isTrue();
      assertThat(d.path("tags").toString()).as(name + ": tags").contains("\"varve\"");
      JsonNode datasource = variable(d, "datasource");
      assertThat(datasource).as(name + ": a datasource variable").isNotNull();
      assertThat(datasource.path("type").asText()).isEqualTo("datasource");
      assertThat(datasource.path("query").asText()).isEqualTo("prometheus");
      assertThat(variable(d, "instance")).as(name + ": an instance variable").isNotNull();
      for (JsonNode v : d.path("templating").path("list")) {
        if (v.path("type").asText().equals("query")) {
          checkDatasource(name + ": variable " + v.path("name"), v.path("datasource"), problems);
        }
      }
      Set<Integer> ids = new HashSet<>();
      for (JsonNode panel : d.path("panels")) {
        if (!ids.add(panel.path("id").asInt())) {
          problems.add(name + ": panel id " + panel.path("id") + " twice");
        }
        JsonNode grid = panel.path("gridPos");
        if (grid.path("w").asInt() < 1 || grid.path("x").asInt() + grid.path("w").asInt() > 24) {
          problems.add(name + ": panel " + panel.path("title") + " outside the grid: " + grid);
        }
      }
      for (JsonNode panel : Monitoring.panels(d)) {
        String where = name + " / " + panel.path("title").asText();
        if (panel.path("title").asText().isBlank()
            || panel.path("description").asText().isBlank()) {
          problems.add(where + ": a title and a description");
        }
        checkDatasource(where, panel.path("datasource"), problems);
        Set<String> refIds = new HashSet<>();
        if (panel.path("targets").isEmpty()) {
          problems.add(where + ": no query");
        }
        for (JsonNode target : panel.path("targets")) {
          checkDatasource(where, target.path("datasource"), problems);
          if (!refIds.add(target.path("refId").asText())) {
            problems.add(where + ": refId " + target.path("refId") + " twice");
          }
          if (target.path("expr").asText().isBlank()) {
            problems.add(where + ": a query without expr");
          }
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void queries_use_only_the_variables_their_dashboard_declares() {
    List<String> problems = new ArrayList<>();
    for (Path file : Monitoring.dashboardFiles()) {
      JsonNode d = Monitoring.dashboard(file);
      Set<String> declared = new TreeSet<>(BUILT_IN);
      d.path("templating").path("list").forEach(v -> declared.add(v.path("name").asText()));
      for (Monitoring.Target t : Monitoring.targets()) {
        if (!t.dashboard().equals(file.getFileName().toString())) {
          continue;
        }
        Matcher m = VARIABLE.matcher(t.expr());
        while (m.find()) {
          String name =
              m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
          if (!declared.contains(name)) {
            problems.add(t + ": $" + name + " is not a variable of the dashboard");
          }
        }
      }
    }
    assertThat(problems).isEmpty();
    assertThat(PromQl.VARIABLES.keySet()).as("what MonitoringIT substitutes").containsAll(BUILT_IN);
  }

  @Test
  void the_readme_names_every_dashboard() throws IOException {
    String readme = Files.readString(Monitoring.home().resolve("README.md"));
    for (Path file : Monitoring.dashboardFiles()) {
      assertThat(readme).as("README.md").contains("`dashboards/" + file.getFileName() + "`");
      assertThat(readme)
          .as("README.md names the title of " + file.getFileName())
          .contains(Monitoring.dashboard(file).path("title").asText());
    }
  }

  private static JsonNode variable(JsonNode dashboard, String name) {
    for (JsonNode v : dashboard.path("templating").path("list")) {
      if (v.path("name").asText().equals(name)) {
        return v;
      }
    }
    return null;
  }

  private static void checkDatasource(String where, JsonNode datasource, List<String> problems) {
    if (!datasource.path("type").asText().equals("prometheus")
        || !datasource.path("uid").asText().equals("${datasource}")) {
      problems.add(where + ": datasource " + datasource + ", not the ${datasource} variable");
    }
  }
}
