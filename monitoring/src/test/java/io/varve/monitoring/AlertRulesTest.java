package io.varve.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The alert rules as an operator meets them, without Prometheus: each alert says how urgent it is
 * and what to do, has a unit test in which it fires, and is described in the README. That the rules
 * load, evaluate and fire as their tests say is MonitoringIT's (promtool and Prometheus).
 */
class AlertRulesTest {

  @Test
  void each_alert_has_a_severity_a_duration_and_says_what_to_do() {
    List<String> problems = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (JsonNode alert : Monitoring.alerts()) {
      String name = alert.path("alert").asText();
      if (!name.matches("Varve[A-Z][A-Za-z]+") || !names.add(name)) {
        problems.add(name + ": a name of its own, VarveSomething");
      }
      if (!alert.has("for")) {
        problems.add(name + ": no for");
      }
      if (!Set.of("critical", "warning").contains(alert.path("labels").path("severity").asText())) {
        problems.add(name + ": severity " + alert.path("labels").path("severity"));
      }
      for (String annotation : List.of("summary", "description", "runbook")) {
        if (alert.path("annotations").path(annotation).asText().isBlank()) {
          problems.add(name + ": no " + annotation);
        }
      }
    }
    assertThat(names).as("alerts").hasSizeGreaterThanOrEqualTo(10);
    assertThat(problems).isEmpty();
  }

  @Test
  void each_alert_fires_in_a_unit_test_of_the_rules() throws IOException {
    String tests = Files.readString(Monitoring.ruleTests());
    for (String name : Monitoring.alertNames()) {
      assertThat(tests)
          .as("varve-alerts.test.yml: a group in which " + name + " fires")
          .contains("ALERTS{alertname=\"" + name + "\", alertstate=\"firing\"");
    }
  }

  @Test
  void the_readme_describes_every_alert() throws IOException {
    String readme = Files.readString(Monitoring.home().resolve("README.md"));
    for (String name : Monitoring.alertNames()) {
      assertThat(readme).as("README.md").contains("`" + name + "`");
    }
  }
}
