package io.varve.core.index;

import java.util.List;

/**
 * A validated search query over indexed fields: field names are item keys as UTF-8 text, and values
 * are already parsed as the field's {@link FieldType}.
 */
public sealed interface SearchQuery {

  /** How a boolean query combines its queries. */
  enum Operator {
    AND,
    OR,
    NOT
  }

  /** AND: all match; OR: at least one matches; NOT: none matches. */
  record Bool(Operator operator, List<SearchQuery> queries) implements SearchQuery {
    public Bool {
      queries = List.copyOf(queries);
    }
  }

  /** The field's value equals {@code value} (TEXT: contains all its words). */
  record Equals(String field, FieldType type, Object value) implements SearchQuery {}

  /** The field's value lies between the bounds; a null bound is open. */
  record Range(
      String field,
      FieldType type,
      Object lower,
      boolean lowerInclusive,
      Object upper,
      boolean upperInclusive)
      implements SearchQuery {}

  /** Every event (of the searched interval). */
  record All() implements SearchQuery {}
}
