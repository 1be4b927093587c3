package io.varve.verify.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps generated namespace configurations from asking the server for an unbounded amount of work:
 * a namespace configuration that could be accepted and would need more than a day of one-hour
 * slices (or buckets narrower than ten minutes) is not sent. Such configurations are a resource
 * question with its own documented limits and tests, not something a fuzz run should spend the test
 * machine on. Conservative: any value that could be read as such a number counts.
 */
final class NamespaceSafety {

  static final long MIN_SLICE_SECONDS = 3600;
  static final long MIN_BUCKET_SECONDS = 600;
  static final long MAX_SLICES_IN_WINDOW = 24;
  private static final long DEFAULT_SLICE = 86400;
  private static final long DEFAULT_ACCEPT = 129600;
  private static final Pattern DURATION =
      Pattern.compile("^\\s*([-+0-9.eE]+)\\s*(ms|s|m|h|d)?\\s*$");

  private NamespaceSafety() {}

  static boolean safe(List<PersistenceConfiguration> configs) {
    for (PersistenceConfiguration c : configs) {
      var t = c.getConfig().getTimePartition();
      double slice = t.hasSecondsPerTimeSlice() ? t.getSecondsPerTimeSlice() : DEFAULT_SLICE;
      double bucket =
          t.hasSecondsPerTimeBucket()
              ? t.getSecondsPerTimeBucket()
              : t.hasSecondPerTimeBucket() ? t.getSecondPerTimeBucket() : Math.min(3600, slice);
      double indexSlice = t.hasSecondsPerSlice() ? t.getSecondsPerSlice() : DEFAULT_SLICE;
      var a = c.getConfig().getAcceptLimit();
      double accept =
          c.getConfig().hasAcceptLimit() ? a.getSeconds() + a.getNanos() / 1e9 : DEFAULT_ACCEPT;
      if (!safe(slice, bucket, indexSlice, accept)) {
        return false;
      }
      if (t.hasSecondPerTimeBucket()
          && !safe(slice, t.getSecondPerTimeBucket(), indexSlice, accept)) {
        return false;
      }
    }
    return true;
  }

  private static boolean safe(double slice, double bucket, double indexSlice, double accept) {
    if (slice > 0 && slice < MIN_SLICE_SECONDS
        || bucket > 0 && bucket < MIN_BUCKET_SECONDS
        || indexSlice > 0 && indexSlice < MIN_SLICE_SECONDS) {
      return false;
    }
    double width =
        Math.min(slice > 0 ? slice : DEFAULT_SLICE, indexSlice > 0 ? indexSlice : DEFAULT_SLICE);
    return !(accept > 0 && accept / width > MAX_SLICES_IN_WINDOW) && !Double.isNaN(accept);
  }

  /** The same check on a JSON body, read as leniently as any server could. */
  static boolean safe(JsonNode body) {
    if (body == null) {
      return true;
    }
    if (body.isArray()) {
      for (JsonNode n : body) {
        if (!safe(n)) {
          return false;
        }
      }
      return true;
    }
    if (!body.isObject()) {
      return true;
    }
    JsonNode config = field(body, "config");
    if (config != null && config.isObject()) {
      JsonNode t = field(config, "timePartition", "time_partition");
      double slice = number(t, DEFAULT_SLICE, "secondsPerTimeSlice", "seconds_per_time_slice");
      double bucket =
          number(
              t,
              Double.NaN,
              "secondsPerTimeBucket",
              "seconds_per_time_bucket",
              "secondPerTimeBucket",
              "second_per_time_bucket");
      double indexSlice = number(t, DEFAULT_SLICE, "secondsPerSlice", "seconds_per_slice");
      double accept = duration(field(config, "acceptLimit", "accept_limit"));
      if (Double.isNaN(bucket)) {
        bucket = Math.min(3600, slice);
      }
      if (!safe(slice, bucket, indexSlice, accept)) {
        return false;
      }
    }
    Iterator<Map.Entry<String, JsonNode>> it = body.fields();
    while (it.hasNext()) {
      if (!safe(it.next().getValue())) {
        return false;
      }
    }
    return true;
  }

  private static JsonNode field(JsonNode node, String... names) {
    if (node == null || !node.isObject()) {
      return null;
    }
    for (String n : names) {
      if (node.has(n)) {
        return node.get(n);
      }
    }
    return null;
  }

  /**
   * The smallest positive number any of the fields may be read as; {@code absent} when none is set.
   */
  private static double number(JsonNode t, double absent, String... names) {
    double smallest = Double.NaN;
    if (t == null || !t.isObject()) {
      return absent;
    }
    for (String n : names) {
      JsonNode v = t.get(n);
      if (v == null) {
        continue;
      }
      double d = v.isNumber() ? v.doubleValue() : parse(v.asText());
      if (!Double.isNaN(d) && (Double.isNaN(smallest) || d < smallest)) {
        smallest = d;
      }
    }
    if (Double.isNaN(smallest)) {
      return absent;
    }
    // 0.5 could round up to 1: count anything positive below 1 as 1
    return smallest > 0 && smallest < 1 ? 1 : smallest;
  }

  private static double duration(JsonNode v) {
    if (v == null || v.isNull()) {
      return DEFAULT_ACCEPT;
    }
    Matcher m = DURATION.matcher(v.asText());
    if (!m.matches()) {
      // anything else (ISO-8601 "PT1H" included) read as the largest duration it could be
      try {
        return java.time.Duration.parse(v.asText()).getSeconds();
      } catch (RuntimeException e) {
        return 0;
      }
    }
    double n = parse(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    return n
        * switch (unit) {
          case "ms" -> 0.001;
          case "m" -> 60;
          case "h" -> 3600;
          case "d" -> 86400;
          default -> 1;
        };
  }

  private static double parse(String s) {
    try {
      return Double.parseDouble(s.trim());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
