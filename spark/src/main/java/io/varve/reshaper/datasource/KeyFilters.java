package io.varve.reshaper.datasource;

import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;

/**
 * Filters that name the partitions to read: a string column (a time series id, a record id) equal
 * to a value or in a list of values. The data sources read those partitions by key instead of
 * scanning token ranges.
 */
public final class KeyFilters {

  private KeyFilters() {}

  /** Whether {@code f} is {@code column = 'x'} or {@code column IN ('x', ...)} of strings. */
  public static boolean isKeyFilter(Filter f, String column) {
    if (f instanceof EqualTo eq && eq.attribute().equals(column)) {
      return eq.value() instanceof String;
    }
    if (f instanceof In in && in.attribute().equals(column)) {
      for (Object v : in.values()) {
        if (!(v instanceof String)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** The values a key filter admits ({@link #isKeyFilter} holds). */
  public static Set<String> values(Filter f) {
    Set<String> values = new LinkedHashSet<>();
    if (f instanceof EqualTo eq) {
      values.add((String) eq.value());
    } else {
      for (Object v : ((In) f).values()) {
        values.add((String) v);
      }
    }
    return values;
  }

  /**
   * The values of {@code column} that {@code filters} admit, key filters joined by AND intersected;
   * null when no filter narrows the column. A filter not made only of key filters of the column is
   * not pushed and not counted.
   *
   * @param pushed receives the filters taken
   */
  public static Set<String> narrow(Filter[] filters, String column, java.util.List<Filter> pushed) {
    Set<String> values = null;
    for (Filter f : filters) {
      if (!onlyKeys(f, column)) {
        continue;
      }
      pushed.add(f);
      values = intersect(values, f, column);
    }
    return values;
  }

  private static boolean onlyKeys(Filter f, String column) {
    if (f instanceof And and) {
      return onlyKeys(and.left(), column) && onlyKeys(and.right(), column);
    }
    return isKeyFilter(f, column);
  }

  private static Set<String> intersect(Set<String> values, Filter f, String column) {
    if (f instanceof And and) {
      return intersect(intersect(values, and.left(), column), and.right(), column);
    }
    Set<String> admitted = values(f);
    if (values == null) {
      return admitted;
    }
    values.retainAll(admitted);
    return values;
  }

  /** Values asked for, the first ten of them when there are more: for a scan's description. */
  public static String shown(Set<String> values) {
    return values.size() <= 10
        ? values.toString()
        : values.stream()
            .limit(10)
            .collect(
                java.util.stream.Collectors.joining(", ", "[", ", ... " + values.size() + " ids]"));
  }
}
