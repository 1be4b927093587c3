package io.varve.opensearch;

import java.util.ArrayList;
import java.util.List;

/**
 * Index names as they go into a request's URL. OpenSearch refuses a request line longer than its
 * {@code http.max_initial_line_length} (4 KiB by default), and a wide interval of narrow index
 * slices names thousands of indices (a backfill from years back, a month's search of hourly
 * slices): those lists are split into requests ({@link #batches}: deletes, which must name exactly
 * what they remove) or named by one pattern ({@link #compact}: searches and refreshes, which may
 * touch more slices of the namespace than asked).
 */
final class IndexNames {

  /** Characters of index names one request line may carry, well under the 4 KiB line limit. */
  static final int MAX_CHARS = 3000;

  private IndexNames() {}

  /** {@code names} in consecutive groups whose comma-joined length is at most {@code maxChars}. */
  static List<List<String>> batches(List<String> names, int maxChars) {
    List<List<String>> batches = new ArrayList<>();
    List<String> current = new ArrayList<>();
    int chars = 0;
    for (String name : names) {
      int added = name.length() + (current.isEmpty() ? 0 : 1);
      if (!current.isEmpty() && chars + added > maxChars) {
        batches.add(current);
        current = new ArrayList<>();
        added = name.length();
        chars = 0;
      }
      current.add(name);
      chars += added;
    }
    if (!current.isEmpty()) {
      batches.add(current);
    }
    return batches;
  }

  /**
   * The indices a search or a refresh names: {@code names} as they are when they fit one request
   * line, else one pattern, their longest common prefix followed by {@code *}. The names are the
   * slices of one namespace ({@code <dataset>.<namespace>.<slice start>}), so the prefix always
   * holds the namespace and its closing dot, and the pattern can match no index of another
   * namespace; it may match slices outside the interval, which the query's time filter leaves out.
   */
  static List<String> compact(List<String> names, int maxChars) {
    int chars = Math.max(0, names.size() - 1);
    for (String name : names) {
      chars += name.length();
    }
    if (chars <= maxChars) {
      return names;
    }
    String prefix = names.get(0);
    for (String name : names) {
      int i = 0;
      while (i < prefix.length() && i < name.length() && prefix.charAt(i) == name.charAt(i)) {
        i++;
      }
      prefix = prefix.substring(0, i);
    }
    if (prefix.chars().filter(c -> c == '.').count() < 2) {
      throw new IllegalArgumentException(
          "index names of more than one namespace in one search: " + names.get(0) + ", ...");
    }
    return List.of(prefix + "*");
  }
}
