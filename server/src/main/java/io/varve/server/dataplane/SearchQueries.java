package io.varve.server.dataplane;

import io.varve.api.timeseries.v1.BooleanQuery;
import io.varve.api.timeseries.v1.EqualsQuery;
import io.varve.api.timeseries.v1.RangeBound;
import io.varve.api.timeseries.v1.RangeQuery;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.SearchLimits;
import io.varve.core.index.SearchQuery;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Validates a request's search query against the namespace's field mapping and turns it into core's
 * {@link SearchQuery}. Errors name the query node by its path, e.g. {@code
 * searchQuery.booleanQuery.searchQuery[1].range.lowerBound.eventItemValue}.
 */
final class SearchQueries {

  private SearchQueries() {}

  /**
   * The core form of a request's {@code searchQuery}: everything when absent. Boolean queries
   * nested deeper than {@code limits.maxDepth()} are refused before any other check.
   */
  static SearchQuery of(
      boolean present,
      io.varve.api.timeseries.v1.SearchQuery query,
      IndexSpec spec,
      SearchLimits limits) {
    if (!present) {
      return new SearchQuery.All();
    }
    checkDepth(true, query, limits.maxDepth());
    return node(query, spec, limits, "searchQuery", 1);
  }

  /** A query node met while measuring the nesting, with what it takes to name it in an error. */
  private record Visit(
      io.varve.api.timeseries.v1.SearchQuery query, int depth, Visit parent, int index) {
    String path() {
      return (parent == null
          ? "searchQuery"
          : parent.path() + ".booleanQuery.searchQuery[" + index + "]");
    }
  }

  /**
   * Refuses a query whose boolean queries nest deeper than {@code max}; called first by the
   * handlers, before any other work on the request. Walks the tree with its own stack, not the call
   * stack, and stops at the first node too deep: a hostile query costs at most one visit per node,
   * and the names of nodes are made only for the error.
   */
  static void checkDepth(boolean present, io.varve.api.timeseries.v1.SearchQuery root, int max) {
    if (!present) {
      return;
    }
    Deque<Visit> pending = new ArrayDeque<>();
    pending.push(new Visit(root, 1, null, 0));
    while (!pending.isEmpty()) {
      Visit visit = pending.pop();
      if (!visit.query().hasBooleanQuery()) {
        continue;
      }
      if (visit.depth() > max) {
        throw InvalidFieldException.of(
            visit.path() + ".booleanQuery",
            "nested "
                + visit.depth()
                + " deep (expected: boolean queries nested at most "
                + max
                + " deep, the server's maxQueryDepth)");
      }
      BooleanQuery bool = visit.query().getBooleanQuery();
      for (int i = bool.getSearchQueryCount() - 1; i >= 0; i--) {
        pending.push(new Visit(bool.getSearchQuery(i), visit.depth() + 1, visit, i));
      }
    }
  }

  private static SearchQuery node(
      io.varve.api.timeseries.v1.SearchQuery q,
      IndexSpec spec,
      SearchLimits limits,
      String path,
      int depth) {
    return switch (q.getQueryCase()) {
      case BOOLEAN_QUERY -> bool(q.getBooleanQuery(), spec, limits, path + ".booleanQuery", depth);
      case EQUALS -> equals(q.getEquals(), spec, path + ".equals");
      case RANGE -> range(q.getRange(), spec, path + ".range");
      case QUERY_NOT_SET ->
          throw InvalidFieldException.of(
              path, "empty (expected: one of booleanQuery, equals, range)");
    };
  }

  private static SearchQuery bool(
      BooleanQuery b, IndexSpec spec, SearchLimits limits, String path, int depth) {
    if (b.getSearchQueryCount() == 0) {
      throw InvalidFieldException.of(
          path + ".searchQuery", "empty (expected: 1.." + limits.maxClauses() + " queries)");
    }
    if (b.getSearchQueryCount() > limits.maxClauses()) {
      throw InvalidFieldException.of(
          path + ".searchQuery",
          b.getSearchQueryCount() + " queries (expected: at most " + limits.maxClauses() + ")");
    }
    SearchQuery.Operator operator;
    try {
      operator =
          b.getOperator().isEmpty()
              ? SearchQuery.Operator.AND
              : SearchQuery.Operator.valueOf(b.getOperator().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidFieldException(path + ".operator", b.getOperator(), "AND, OR or NOT");
    }
    List<SearchQuery> children = new ArrayList<>();
    for (int i = 0; i < b.getSearchQueryCount(); i++) {
      children.add(
          node(b.getSearchQuery(i), spec, limits, path + ".searchQuery[" + i + "]", depth + 1));
    }
    return new SearchQuery.Bool(operator, children);
  }

  private static SearchQuery equals(EqualsQuery e, IndexSpec spec, String path) {
    String field = field(e.getEventItemKey().toByteArray(), spec, path + ".eventItemKey");
    FieldType type = spec.fields().get(field);
    return new SearchQuery.Equals(
        field, type, value(type, e.getEventItemValue().toByteArray(), path + ".eventItemValue"));
  }

  private static SearchQuery range(RangeQuery r, IndexSpec spec, String path) {
    String field = field(r.getEventItemKey().toByteArray(), spec, path + ".eventItemKey");
    FieldType type = spec.fields().get(field);
    if (type == FieldType.TEXT) {
      throw InvalidFieldException.of(
          path + ".eventItemKey",
          "'"
              + field
              + "' is a TEXT field (expected: a field of"
              + " type KEYWORD, INTEGER, LONG, DOUBLE, BOOLEAN or TIMESTAMP; TEXT supports equals only)");
    }
    if (!r.hasLowerBound() && !r.hasUpperBound()) {
      throw InvalidFieldException.of(
          path, "has no bound (expected: lowerBound, upperBound or both)");
    }
    Object lower = r.hasLowerBound() ? bound(type, r.getLowerBound(), path + ".lowerBound") : null;
    Object upper = r.hasUpperBound() ? bound(type, r.getUpperBound(), path + ".upperBound") : null;
    return new SearchQuery.Range(
        field,
        type,
        lower,
        r.hasLowerBound() && r.getLowerBound().getInclusive(),
        upper,
        r.hasUpperBound() && r.getUpperBound().getInclusive());
  }

  private static Object bound(FieldType type, RangeBound bound, String path) {
    return value(type, bound.getEventItemValue().toByteArray(), path + ".eventItemValue");
  }

  /** The indexed field named by a base64 item key; errors list the indexed fields. */
  static String field(byte[] key, IndexSpec spec, String path) {
    String field = new String(key, StandardCharsets.UTF_8);
    if (key.length == 0) {
      throw InvalidFieldException.of(
          path,
          "missing (expected: the base64 key of an indexed item, one of " + indexed(spec) + ")");
    }
    return known(field, spec, path);
  }

  /** {@code field} when the namespace indexes it; an error listing the indexed fields otherwise. */
  static String known(String field, IndexSpec spec, String path) {
    if (!spec.fields().containsKey(field)) {
      throw new InvalidFieldException(
          path, field, "a field of the namespace's fieldMapping: " + indexed(spec));
    }
    return field;
  }

  private static String indexed(IndexSpec spec) {
    Map<String, String> fields = new TreeMap<>();
    spec.fields().forEach((k, v) -> fields.put(k, v.name()));
    return fields.toString();
  }

  private static Object value(FieldType type, byte[] value, String path) {
    Object parsed = type.parse(value);
    if (parsed == null) {
      throw new InvalidFieldException(
          path,
          new String(value, StandardCharsets.UTF_8),
          type.expected() + " (the field is " + type + "; the value is the base64 of its text)");
    }
    return parsed;
  }
}
