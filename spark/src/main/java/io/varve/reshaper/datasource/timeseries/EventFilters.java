package io.varve.reshaper.datasource.timeseries;

import io.varve.reshaper.datasource.KeyFilters;
import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;

/**
 * What a read's filters narrow: an interval of event times {@code [fromMillis, toMillis)} (slices,
 * and rows within a slice) and a set of time series ids (partitions read by key instead of token
 * ranges scanned). Pushed: comparisons of {@code event_time} with a timestamp, and {@code
 * time_series_id} equal to or in a list of strings, alone or joined by AND. Each pushed filter is
 * applied exactly by the read; Spark evaluates every filter again after the scan all the same.
 *
 * <p>Stored event times are whole milliseconds: a bound with microseconds is rounded to the
 * milliseconds it admits ({@code event_time > 1000.5 ms} reads from 1001 ms).
 *
 * @param series the ids a row may have; empty when not narrowed
 */
record EventFilters(
    long fromMillis, long toMillis, Optional<Set<String>> series, List<Filter> pushed)
    implements Serializable {

  static EventFilters of(long fromMillis, long toMillis, Filter[] filters) {
    Narrowing n = new Narrowing(fromMillis, toMillis);
    List<Filter> pushed = new ArrayList<>();
    for (Filter f : filters) {
      if (n.push(f)) {
        pushed.add(f);
      }
    }
    return new EventFilters(n.from, n.to, Optional.ofNullable(n.series), List.copyOf(pushed));
  }

  boolean empty() {
    return fromMillis >= toMillis || series.map(Set::isEmpty).orElse(false);
  }

  private static final class Narrowing {
    long from;
    long to;
    Set<String> series;

    Narrowing(long from, long to) {
      this.from = from;
      this.to = to;
    }

    /** Narrows by {@code f} when it is pushable; false, with nothing changed, when it is not. */
    boolean push(Filter f) {
      if (!pushable(f)) {
        return false;
      }
      apply(f);
      return true;
    }

    private static boolean pushable(Filter f) {
      if (f instanceof And and) {
        return pushable(and.left()) && pushable(and.right());
      }
      if (KeyFilters.isKeyFilter(f, EventColumns.TIME_SERIES_ID)) {
        return true;
      }
      String attribute = timeAttribute(f);
      return attribute != null
          && attribute.equals(EventColumns.EVENT_TIME)
          && micros(timeValue(f)) != null;
    }

    private void apply(Filter f) {
      if (f instanceof And and) {
        apply(and.left());
        apply(and.right());
      } else if (KeyFilters.isKeyFilter(f, EventColumns.TIME_SERIES_ID)) {
        narrowSeries(KeyFilters.values(f));
      } else {
        long us = micros(timeValue(f));
        long floor = Math.floorDiv(us, 1000);
        long ceil = -Math.floorDiv(-us, 1000);
        if (f instanceof GreaterThan) {
          from = Math.max(from, floor + 1);
        } else if (f instanceof GreaterThanOrEqual) {
          from = Math.max(from, ceil);
        } else if (f instanceof LessThan) {
          to = Math.min(to, ceil);
        } else if (f instanceof LessThanOrEqual) {
          to = Math.min(to, floor + 1);
        } else { // EqualTo
          from = Math.max(from, ceil);
          to = Math.min(to, floor + 1);
        }
      }
    }

    private void narrowSeries(Set<String> ids) {
      if (series == null) {
        series = new LinkedHashSet<>(ids);
      } else {
        series.retainAll(ids);
      }
    }
  }

  private static String timeAttribute(Filter f) {
    if (f instanceof GreaterThan g) {
      return g.attribute();
    } else if (f instanceof GreaterThanOrEqual g) {
      return g.attribute();
    } else if (f instanceof LessThan l) {
      return l.attribute();
    } else if (f instanceof LessThanOrEqual l) {
      return l.attribute();
    } else if (f instanceof EqualTo e) {
      return e.attribute();
    }
    return null;
  }

  private static Object timeValue(Filter f) {
    if (f instanceof GreaterThan g) {
      return g.value();
    } else if (f instanceof GreaterThanOrEqual g) {
      return g.value();
    } else if (f instanceof LessThan l) {
      return l.value();
    } else if (f instanceof LessThanOrEqual l) {
      return l.value();
    }
    return ((EqualTo) f).value();
  }

  /** A filter's timestamp in microseconds since the epoch, or null when it is no timestamp. */
  static Long micros(Object value) {
    Instant instant;
    if (value instanceof Timestamp t) {
      instant = t.toInstant();
    } else if (value instanceof Instant i) {
      instant = i;
    } else {
      return null;
    }
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }
}
