package io.varve.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The files of this module, as the tests read them: the dashboards and the alert rules. */
final class Monitoring {

  private Monitoring() {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** One query of a dashboard's panel. */
  record Target(String dashboard, String panel, String refId, String expr) {
    @Override
    public String toString() {
      return dashboard + " / " + panel + " / " + refId;
    }
  }

  /** The module's directory: the working directory of its tests, or monitoring/ below it. */
  static Path home() {
    Path here = Path.of("").toAbsolutePath();
    for (Path dir = here; dir != null; dir = dir.getParent()) {
      if (Files.isDirectory(dir.resolve("dashboards"))
          && Files.isDirectory(dir.resolve("alerts"))) {
        return dir;
      }
      if (Files.isDirectory(dir.resolve("monitoring/dashboards"))) {
        return dir.resolve("monitoring");
      }
    }
    throw new IllegalStateException("no monitoring/ module above " + here);
  }

  static Path rules() {
    return home().resolve("alerts/varve-alerts.yml");
  }

  static Path ruleTests() {
    return home().resolve("alerts/varve-alerts.test.yml");
  }

  /** The dashboards' files, by name. */
  static List<Path> dashboardFiles() {
    try (Stream<Path> files = Files.list(home().resolve("dashboards"))) {
      return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode dashboard(Path file) {
    try {
      return JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The panels of a dashboard, those inside collapsed rows included, rows themselves not. */
  static List<JsonNode> panels(JsonNode dashboard) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asText().equals("row")) {
        panel.path("panels").forEach(out::add);
      } else {
        out.add(panel);
      }
    }
    return out;
  }

  private static final Pattern LABEL_VALUES =
      Pattern.compile("^label_values\\((.+),\\s*(\\w+)\\s*\\)$");

  /**
   * Every query of every panel of every dashboard, and of its template variables: {@code
   * label_values(selector, label)} as {@code count by (label) (selector)}, which returns a series
   * for each value the variable offers.
   */
  static List<Target> targets() {
    List<Target> out = new ArrayList<>();
    for (Path file : dashboardFiles()) {
      JsonNode dashboard = dashboard(file);
      for (JsonNode variable : dashboard.path("templating").path("list")) {
        if (!variable.path("type").asText().equals("query")) {
          continue;
        }
        String query = variable.path("query").path("query").asText(variable.path("query").asText());
        Matcher m = LABEL_VALUES.matcher(query.strip());
        if (!m.matches()) {
          throw new IllegalStateException(
              file.getFileName() + ": variable " + variable.path("name") + ": " + query);
        }
        out.add(
            new Target(
                file.getFileName().toString(),
                "variable $" + variable.path("name").asText(),
                "-",
                "count by (" + m.group(2) + ") (" + m.group(1) + ")"));
      }
      for (JsonNode panel : panels(dashboard)) {
        for (JsonNode target : panel.path("targets")) {
          out.add(
              new Target(
                  file.getFileName().toString(),
                  panel.path("title").asText(),
                  target.path("refId").asText(),
                  target.path("expr").asText()));
        }
      }
    }
    return out;
  }

  /** The rule file as a tree. */
  static JsonNode ruleFile() {
    try {
      return YAML.readTree(rules().toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The alerting rules of the rule file, in order. */
  static List<JsonNode> alerts() {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode group : ruleFile().path("groups")) {
      for (JsonNode rule : group.path("rules")) {
        if (rule.has("alert")) {
          out.add(rule);
        }
      }
    }
    return out;
  }

  static List<String> alertNames() {
    return alerts().stream().map(a -> a.path("alert").asText()).toList();
  }

  /** Each alert's expression, by the alert's name. */
  static Map<String, String> alertExpressions() {
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode alert : alerts()) {
      out.put(alert.path("alert").asText(), alert.path("expr").asText());
    }
    return out;
  }

  /** Every expression of the module, the panels' and the alerts', by where it is. */
  static Map<String, String> expressions() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Target t : targets()) {
      out.put(t.toString(), t.expr());
    }
    alertExpressions().forEach((name, expr) -> out.put("alert " + name, expr));
    return out;
  }
}
