package io.varve.opensearch;

import io.varve.core.index.FieldType;
import io.varve.core.index.IndexStore.Search;
import io.varve.core.index.SearchQuery;
import java.util.List;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.SortOptions;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch._types.query_dsl.Operator;
import org.opensearch.client.opensearch._types.query_dsl.Query;

/**
 * Core's search queries in OpenSearch's query DSL: the interval as a filter on the event time,
 * equality as a term (a match of every word on a TEXT field), ranges, and/or/not as bool queries
 * whose clauses are filters (no scoring: hits come in the store's own order).
 */
final class OpenSearchQueries {

  private OpenSearchQueries() {}

  static SortOptions sort(String field, SortOrder order) {
    return SortOptions.of(s -> s.field(f -> f.field(field).order(order)));
  }

  static Query filtered(Search search) {
    Query interval =
        Query.of(
            q ->
                q.range(
                    r ->
                        r.field(OpenSearchIndexStore.TIME)
                            .gte(JsonData.of(search.fromMillis()))
                            .lt(JsonData.of(search.toMillis()))));
    Query query = query(search.query());
    return Query.of(q -> q.bool(b -> b.filter(interval, query)));
  }

  static Query query(SearchQuery query) {
    if (query instanceof SearchQuery.Equals eq) {
      return eq.type() == FieldType.TEXT
          ? Query.of(
              q ->
                  q.match(
                      m ->
                          m.field(OpenSearchIndexStore.field(eq.field()))
                              .query(FieldValue.of((String) eq.value()))
                              .operator(Operator.And)))
          : Query.of(
              q ->
                  q.term(
                      t ->
                          t.field(OpenSearchIndexStore.field(eq.field()))
                              .value(value(eq.value()))));
    }
    if (query instanceof SearchQuery.Range r) {
      return Query.of(
          q ->
              q.range(
                  b -> {
                    b.field(OpenSearchIndexStore.field(r.field()));
                    if (r.lower() != null) {
                      b =
                          r.lowerInclusive()
                              ? b.gte(JsonData.of(r.lower()))
                              : b.gt(JsonData.of(r.lower()));
                    }
                    if (r.upper() != null) {
                      b =
                          r.upperInclusive()
                              ? b.lte(JsonData.of(r.upper()))
                              : b.lt(JsonData.of(r.upper()));
                    }
                    return b;
                  }));
    }
    if (query instanceof SearchQuery.Bool bool) {
      List<Query> children = bool.queries().stream().map(OpenSearchQueries::query).toList();
      return switch (bool.operator()) {
        case AND -> Query.of(q -> q.bool(b -> b.filter(children)));
        case OR -> Query.of(q -> q.bool(b -> b.should(children).minimumShouldMatch("1")));
        case NOT -> Query.of(q -> q.bool(b -> b.mustNot(children)));
      };
    }
    return Query.of(q -> q.matchAll(m -> m));
  }

  static FieldValue value(Object value) {
    if (value instanceof String s) {
      return FieldValue.of(s);
    }
    if (value instanceof Boolean b) {
      return FieldValue.of(b);
    }
    if (value instanceof Double d) {
      return FieldValue.of(d);
    }
    return FieldValue.of(((Number) value).longValue());
  }
}
