package io.varve.verify.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * One-field mutations of a valid request's JSON form: a field (any node of the tree) is replaced by
 * a value of the wrong type, out of range, huge, empty, odd unicode, negative, NaN, deeply nested,
 * bad base64, a bad timestamp or duration; or an unknown field or a duplicate key is added.
 */
final class JsonMutations {

  static final ObjectMapper JSON = new ObjectMapper();
  private static final String DEEP = "\u0001deep\u0001";
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** A mutation: which node (an index into the tree's nodes, modulo their number) and how. */
  record Mutation(int node, String kind, JsonNode value, String duplicateOf) {
    String describe(String path) {
      String shown = value == null ? "" : value.toString().replace("\\u0001deep\\u0001", "nested ");
      shown =
          shown.length() > 120
              ? shown.substring(0, 120) + "...(" + shown.length() + " chars)"
              : shown;
      return kind + " at " + path + (value == null ? "" : ": " + shown);
    }
  }

  /** The mutated JSON text and a description of what changed. */
  record Mutated(String json, String description) {}

  static Arbitrary<Mutation> mutations() {
    Arbitrary<Integer> node = Arbitraries.integers().between(0, 10_000);
    Arbitrary<String[]> kindAndValue =
        Arbitraries.frequencyOf(
            List.of(
                weighted(
                    3,
                    "wrong type",
                    "{}",
                    "[]",
                    "true",
                    "123",
                    "\"text\"",
                    "null",
                    "[1,2]",
                    "{\"a\":1}"),
                weighted(
                    3,
                    "out of range",
                    "-1",
                    "0",
                    "2147483648",
                    "-2147483649",
                    "9223372036854775808",
                    "-9223372036854775809",
                    "1e308",
                    "1.5",
                    "\"1e400\"",
                    "\"-0\"",
                    "99999999999999999999999999"),
                weighted(2, "negative", "-1", "\"-1\"", "-9223372036854775808", "\"-129600s\""),
                weighted(2, "nan", "\"NaN\"", "\"Infinity\"", "\"-Infinity\""),
                weighted(3, "empty", "\"\"", "[]", "{}"),
                weighted(
                    3,
                    "unicode",
                    "\"\\u0000\"",
                    "\"\\ud800\"",
                    "\"\\udfff\\ud800\"",
                    "\"\\u202e\\u2603\"",
                    "\"\\uffff\\ufffe\"",
                    "\"e\\u0301\\u0301\\u0301\"",
                    "\"\\ud83d\\ude00\"",
                    "\"A\\u0000B\""),
                weighted(
                    3,
                    "bad base64",
                    "\"not base64!!\"",
                    "\"YQ\"",
                    "\"====\"",
                    "\"YW=Jj\"",
                    "\"-_-_\"",
                    "\"\\u00e9\"",
                    "\"YWJj\\n\""),
                weighted(
                    4,
                    "bad timestamp",
                    "\"2025-02-30T00:00:00Z\"",
                    "\"2025-01-01T24:00:00Z\"",
                    "\"2025-01-01T00:00:00+25:00\"",
                    "\"0000-01-01T00:00:00Z\"",
                    "\"10000-01-01T00:00:00Z\"",
                    "\"2025-01-01\"",
                    "\"1700000000\"",
                    "\"2025-01-01T00:00:00.123456789Z\"",
                    "\"2025-01-01T00:00:60Z\"",
                    "\"1969-12-31T23:59:59Z\"",
                    "\"2025-13-01T00:00:00Z\"",
                    "\"2025-01-01T00:00:00\"",
                    "1700000000000"),
                weighted(
                    2,
                    "bad duration",
                    "\"-5s\"",
                    "\"0s\"",
                    "\"1.5.5s\"",
                    "\"s\"",
                    "\"1y\"",
                    "\"315576000001s\"",
                    "\"100000000000d\"",
                    "\"PT1H\"",
                    "\"1e9s\""),
                weighted(2, "unknown field", ""),
                weighted(2, "duplicate key", "\"dup\"", "1", "\"\"", "{}"),
                Tuple2.weighted(2, "huge", Arbitraries.of(1, 70_000, 1 << 20, 3 << 20)),
                Tuple2.weighted(2, "deep nesting", Arbitraries.of(64, 200, 1000, 5000))));
    return Combinators.combine(node, kindAndValue)
        .as(
            (n, kv) -> {
              String kind = kv[0];
              JsonNode value = kv[1].isEmpty() ? null : value(kind, kv[1]);
              return new Mutation(n, kind, value, kind.equals("duplicate key") ? "dup" : null);
            });
  }

  private static JsonNode value(String kind, String spec) {
    if (kind.equals("huge")) {
      return F.textNode("x".repeat(Integer.parseInt(spec)));
    }
    if (kind.equals("deep nesting")) {
      // a placeholder: the nested text is put in after printing (a JSON tree this deep cannot be
      // printed)
      return F.textNode(DEEP + spec);
    }
    try {
      return JSON.readTree(spec);
    } catch (Exception e) {
      throw new IllegalStateException(spec, e);
    }
  }

  private static net.jqwik.api.Tuple.Tuple2<Integer, Arbitrary<String[]>> weighted(
      int weight, String kind, String... values) {
    return net.jqwik.api.Tuple.of(weight, Arbitraries.of(values).map(v -> new String[] {kind, v}));
  }

  /** Helpers for kinds whose value is a size. */
  private static final class Tuple2 {
    static net.jqwik.api.Tuple.Tuple2<Integer, Arbitrary<String[]>> weighted(
        int weight, String kind, Arbitrary<Integer> sizes) {
      return net.jqwik.api.Tuple.of(
          weight, sizes.map(v -> new String[] {kind, Integer.toString(v)}));
    }
  }

  /** Applies {@code m} to a copy of {@code request}. */
  static Mutated apply(JsonNode request, Mutation m) {
    JsonNode root = request.deepCopy();
    List<String> paths = new ArrayList<>();
    List<JsonNode> parents = new ArrayList<>();
    List<Object> slots = new ArrayList<>();
    paths.add("(body)");
    parents.add(null);
    slots.add(null);
    collect(root, "", paths, parents, slots);
    int i = m.node() % paths.size();
    JsonNode parent = parents.get(i);
    Object slot = slots.get(i);
    String path = paths.get(i);
    switch (m.kind()) {
      case "unknown field" -> {
        ObjectNode target = objectAt(root, parent, slot);
        target.put("fuzzUnknownField", 1);
        return new Mutated(root.toString(), "unknown field fuzzUnknownField in " + path);
      }
      case "duplicate key" -> {
        ObjectNode target = objectAt(root, parent, slot);
        if (target.isEmpty()) {
          target.set("namespace", F.textNode("x"));
        }
        String key = target.fieldNames().next();
        target.set("\u0001dup\u0001", m.value());
        String text =
            root.toString().replace("\"\\u0001dup\\u0001\"", JSON.valueToTree(key).toString());
        return new Mutated(
            text, "duplicate key " + key + " in " + path + " (second value " + m.value() + ")");
      }
      default -> {
        if (parent == null) {
          return new Mutated(deep(m.value().toString()), m.describe(path));
        }
        if (parent instanceof ObjectNode o) {
          o.set((String) slot, m.value());
        } else {
          ((ArrayNode) parent).set((Integer) slot, m.value());
        }
        return new Mutated(deep(root.toString()), m.describe(path));
      }
    }
  }

  /** Replaces a deep-nesting placeholder by arrays and objects nested that deep. */
  private static String deep(String json) {
    int at = json.indexOf("\"\\u0001deep\\u0001");
    if (at < 0) {
      return json;
    }
    int end = json.indexOf('"', at + 1);
    int depth = Integer.parseInt(json.substring(at + 1 + 16, end));
    StringBuilder b = new StringBuilder(json.length() + depth * 8);
    b.append(json, 0, at);
    for (int i = 0; i < depth; i++) {
      b.append(i % 2 == 0 ? "[" : "{\"a\":");
    }
    b.append('1');
    for (int i = depth - 1; i >= 0; i--) {
      b.append(i % 2 == 0 ? "]" : "}");
    }
    b.append(json, end + 1, json.length());
    return b.toString();
  }

  private static ObjectNode objectAt(JsonNode root, JsonNode parent, Object slot) {
    JsonNode node =
        parent == null
            ? root
            : parent instanceof ObjectNode o ? o.get((String) slot) : parent.get((Integer) slot);
    if (node instanceof ObjectNode o) {
      return o;
    }
    return (ObjectNode) root;
  }

  private static void collect(
      JsonNode node, String path, List<String> paths, List<JsonNode> parents, List<Object> slots) {
    if (node instanceof ObjectNode o) {
      var it = o.fields();
      while (it.hasNext()) {
        var e = it.next();
        String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
        paths.add(p);
        parents.add(o);
        slots.add(e.getKey());
        collect(e.getValue(), p, paths, parents, slots);
      }
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        String p = path + "[" + i + "]";
        paths.add(p);
        parents.add(a);
        slots.add(i);
        collect(a.get(i), p, paths, parents, slots);
      }
    }
  }
}
