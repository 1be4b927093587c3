package io.varve.bench.cost;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.bench.engine.BenchInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A pricing file of {@code bench cost} (YAML): the currency, the hours a month is billed for, where
 * the prices come from, and one entry per system to price. Every key is checked: an unknown or
 * misplaced key, a missing price or a value out of range is refused naming the key, the value and
 * what was expected. Nothing is fetched from anywhere; the prices are the file's.
 *
 * @param currency shown beside every amount (e.g. USD)
 * @param hoursPerMonth billed hours per month (730 = 8,760 / 12)
 * @param source where the prices come from, shown with the costs
 * @param date when they were read there
 * @param systems what to price, in the file's order
 */
public record Pricing(
    String currency, double hoursPerMonth, String source, String date, List<PricedSystem> systems) {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /**
   * One system to price from the capacity search of its binding.
   *
   * @param name unique, shown in the cost lines
   * @param binding whose capacity summary it is priced from
   * @param deployment how its cost grows with the throughput
   * @param storageGb stored gigabytes billed apart (0: none, e.g. instance storage)
   * @param storagePerGbMonth their price per gigabyte-month
   * @param otherMonthly a fixed monthly amount: support, a license that is not per node
   */
  public record PricedSystem(
      String name,
      String binding,
      Deployment deployment,
      double storageGb,
      double storagePerGbMonth,
      double otherMonthly) {}

  /** How a system's cost follows the throughput asked of it. */
  public sealed interface Deployment permits Nodes, DynamoDb {}

  /**
   * A cluster of identical nodes: as many as the throughput needs at the measured capacity per
   * node, at least {@code minimum}.
   *
   * @param instance the node's name, shown (e.g. i3.8xlarge)
   * @param pricePerHour one node's price per hour, its license included when per node
   * @param measuredNodes the nodes of the deployment the capacity was measured on
   * @param minimum the fewest nodes of a cluster (e.g. the replication factor)
   */
  public record Nodes(String instance, double pricePerHour, int measuredNodes, int minimum)
      implements Deployment {}

  /** DynamoDB's ways of paying for capacity. */
  public enum Mode {
    /** Capacity units provisioned per hour, sized at {@code utilization}. */
    PROVISIONED,
    /** Provisioned units bought ahead in blocks of 100: an upfront payment and a lower hourly. */
    RESERVED,
    /** Each request's units, per million. */
    ON_DEMAND
  }

  /**
   * DynamoDB capacity, sized from the units the workload consumes per operation.
   *
   * @param mode how it is paid for
   * @param utilization the share of the provisioned units the workload may use (provisioned and
   *     reserved): DynamoDB throttles short of 100 %, and an operator sizes with headroom
   * @param writeUnitHour provisioned: one write capacity unit per hour
   * @param readUnitHour provisioned: one read capacity unit per hour
   * @param termYears reserved: the term of the reservation
   * @param writeUpfrontPer100 reserved: upfront per 100 write units
   * @param writeHourPer100 reserved: hourly per 100 write units
   * @param readUpfrontPer100 reserved: upfront per 100 read units
   * @param readHourPer100 reserved: hourly per 100 read units
   * @param writeRequestPerMillion on-demand: per million write request units
   * @param readRequestPerMillion on-demand: per million read request units
   */
  public record DynamoDb(
      Mode mode,
      double utilization,
      double writeUnitHour,
      double readUnitHour,
      double termYears,
      double writeUpfrontPer100,
      double writeHourPer100,
      double readUpfrontPer100,
      double readHourPer100,
      double writeRequestPerMillion,
      double readRequestPerMillion)
      implements Deployment {}

  /** Reads and checks a pricing file. */
  public static Pricing read(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (JsonProcessingException e) {
      throw new BenchInputException(
          "--pricing " + file + " is not valid YAML: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new BenchInputException("--pricing " + file + ": cannot read it: " + e.getMessage(), e);
    }
    return parse(root, "--pricing " + file);
  }

  /** Checks a pricing file's tree; {@code where} prefixes every error. */
  static Pricing parse(JsonNode root, String where) {
    Fields top = new Fields(root, where, "");
    top.only("currency", "hoursPerMonth", "source", "date", "systems");
    String currency = top.text("currency", null);
    double hours = top.number("hoursPerMonth", 730, 1, 744);
    String source = top.has("source") ? top.text("source", null) : null;
    String date = top.has("date") ? top.text("date", null) : null;
    JsonNode list = top.required("systems");
    if (!list.isArray() || list.isEmpty()) {
      throw top.refused("systems", list, "a list of at least one system");
    }
    List<PricedSystem> systems = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      Fields s = new Fields(list.get(i), where, "systems[" + i + "].");
      s.only("name", "binding", "nodes", "dynamodb", "storage", "otherMonthly");
      String name = s.text("name", null);
      if (!names.add(name)) {
        throw s.refused("name", list.get(i).get("name"), "a name no other system has");
      }
      String binding = s.text("binding", null);
      boolean nodes = list.get(i).has("nodes");
      boolean dynamo = list.get(i).has("dynamodb");
      if (nodes == dynamo) {
        throw new BenchInputException(
            where
                + ": systems["
                + i
                + "] ("
                + name
                + "): give exactly one of nodes or dynamodb (expected: how the system is deployed)");
      }
      Deployment deployment = nodes ? nodes(s.child("nodes")) : dynamoDb(s.child("dynamodb"));
      double storageGb = 0;
      double storagePrice = 0;
      if (list.get(i).has("storage")) {
        Fields st = s.child("storage");
        st.only("gb", "pricePerGbMonth");
        storageGb = st.number("gb", null, 0, 1e12);
        storagePrice = st.number("pricePerGbMonth", null, 0, 1e9);
      }
      double other = s.number("otherMonthly", 0, 0, 1e12);
      systems.add(new PricedSystem(name, binding, deployment, storageGb, storagePrice, other));
    }
    return new Pricing(currency, hours, source, date, List.copyOf(systems));
  }

  private static Nodes nodes(Fields n) {
    n.only("instance", "pricePerHour", "measuredNodes", "minimum");
    String instance = n.text("instance", "node");
    double price = n.number("pricePerHour", null, 0, 1e9);
    int measured = (int) n.whole("measuredNodes", 1, 1, 100_000);
    int minimum = (int) n.whole("minimum", 1, 1, 100_000);
    return new Nodes(instance, price, measured, minimum);
  }

  private static DynamoDb dynamoDb(Fields d) {
    String modeText = d.text("mode", null);
    Mode mode;
    try {
      mode = Mode.valueOf(modeText.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw d.refused("mode", d.node.get("mode"), "provisioned, reserved or on-demand");
    }
    return switch (mode) {
      case PROVISIONED -> {
        d.only("mode", "utilization", "writeUnitHour", "readUnitHour");
        yield new DynamoDb(
            mode,
            d.number("utilization", 1.0, 0.01, 1),
            d.number("writeUnitHour", null, 0, 1e6),
            d.number("readUnitHour", null, 0, 1e6),
            0,
            0,
            0,
            0,
            0,
            0,
            0);
      }
      case RESERVED -> {
        d.only(
            "mode",
            "utilization",
            "termYears",
            "writeUpfrontPer100",
            "writeHourPer100",
            "readUpfrontPer100",
            "readHourPer100");
        yield new DynamoDb(
            mode,
            d.number("utilization", 1.0, 0.01, 1),
            0,
            0,
            d.number("termYears", null, 0.25, 10),
            d.number("writeUpfrontPer100", null, 0, 1e9),
            d.number("writeHourPer100", null, 0, 1e6),
            d.number("readUpfrontPer100", null, 0, 1e9),
            d.number("readHourPer100", null, 0, 1e6),
            0,
            0);
      }
      case ON_DEMAND -> {
        d.only("mode", "writeRequestPerMillion", "readRequestPerMillion");
        yield new DynamoDb(
            mode,
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            d.number("writeRequestPerMillion", null, 0, 1e6),
            d.number("readRequestPerMillion", null, 0, 1e6));
      }
    };
  }

  /** The keys of one mapping of the file, each read and checked by its full name. */
  private static final class Fields {
    private final JsonNode node;
    private final String where;
    private final String prefix;

    Fields(JsonNode node, String where, String prefix) {
      this.node = node;
      this.where = where;
      this.prefix = prefix;
      if (node == null || !node.isObject()) {
        throw new BenchInputException(
            where
                + ": "
                + (prefix.isEmpty() ? "the file" : prefix.substring(0, prefix.length() - 1))
                + " is "
                + shown(node)
                + " (expected: a mapping of keys)");
      }
    }

    boolean has(String key) {
      return node.hasNonNull(key);
    }

    Fields child(String key) {
      return new Fields(node.get(key), where, prefix + key + ".");
    }

    /** Refuses any key but {@code allowed}. */
    void only(String... allowed) {
      Set<String> known = Set.of(allowed);
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        if (!known.contains(key)) {
          throw new BenchInputException(
              where
                  + ": "
                  + prefix
                  + key
                  + " is not a key here (expected one of "
                  + String.join(", ", allowed)
                  + ")");
        }
      }
    }

    JsonNode required(String key) {
      JsonNode value = node.get(key);
      if (value == null || value.isNull()) {
        throw new BenchInputException(where + ": " + prefix + key + " is missing");
      }
      return value;
    }

    String text(String key, String fallback) {
      JsonNode value = node.get(key);
      if (value == null || value.isNull()) {
        if (fallback == null) {
          throw new BenchInputException(where + ": " + prefix + key + " is missing");
        }
        return fallback;
      }
      if (!value.isTextual() || value.asText().isBlank()) {
        throw refused(key, value, "a text that is not empty");
      }
      return value.asText();
    }

    double number(String key, Double fallback, double min, double max) {
      JsonNode value = node.get(key);
      if (value == null || value.isNull()) {
        if (fallback == null) {
          throw new BenchInputException(where + ": " + prefix + key + " is missing");
        }
        return fallback;
      }
      if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
        throw refused(key, value, "a number from " + plain(min) + " to " + plain(max));
      }
      double v = value.asDouble();
      if (v < min || v > max) {
        throw refused(key, value, "a number from " + plain(min) + " to " + plain(max));
      }
      return v;
    }

    double number(String key, double fallback, double min, double max) {
      return number(key, Double.valueOf(fallback), min, max);
    }

    long whole(String key, long fallback, long min, long max) {
      JsonNode value = node.get(key);
      if (value == null || value.isNull()) {
        return fallback;
      }
      if (!value.isIntegralNumber() || value.asLong() < min || value.asLong() > max) {
        throw refused(key, value, "a whole number from " + min + " to " + max);
      }
      return value.asLong();
    }

    BenchInputException refused(String key, JsonNode value, String expected) {
      return new BenchInputException(
          where + ": " + prefix + key + " is " + shown(value) + " (expected: " + expected + ")");
    }

    private static String shown(JsonNode value) {
      if (value == null || value.isNull()) {
        return "empty";
      }
      return value.isValueNode() ? value.asText() : value.toString();
    }

    private static String plain(double v) {
      return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
  }
}
