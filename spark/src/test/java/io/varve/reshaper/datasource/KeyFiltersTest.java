package io.varve.reshaper.datasource;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.Or;
import org.junit.jupiter.api.Test;

/** Which filters name the records (or series) a read takes by key, and which it leaves to Spark. */
class KeyFiltersTest {

  @Test
  void equality_and_in_lists_joined_by_and_are_intersected_and_reported_as_pushed() {
    List<Filter> pushed = new ArrayList<>();
    Filter in = new In("id", new Object[] {"a", "b", "c"});
    Filter both = new And(new EqualTo("id", "b"), new In("id", new Object[] {"b", "d"}));

    Set<String> ids = KeyFilters.narrow(new Filter[] {in, both}, "id", pushed);

    assertThat(ids).containsExactly("b");
    assertThat(pushed).containsExactly(in, both);
  }

  @Test
  void filters_of_other_columns_or_values_or_an_or_are_not_pushed_and_narrow_nothing() {
    List<Filter> pushed = new ArrayList<>();
    Filter other = new EqualTo("key", "a");
    Filter number = new EqualTo("id", 5);
    Filter withNull = new In("id", new Object[] {"a", null});
    Filter or = new Or(new EqualTo("id", "a"), new EqualTo("id", "b"));
    Filter mixed = new And(new EqualTo("id", "a"), other);

    Set<String> ids =
        KeyFilters.narrow(new Filter[] {other, number, withNull, or, mixed}, "id", pushed);

    assertThat(ids).as("no filter narrows the ids").isNull();
    assertThat(pushed).isEmpty();
  }

  @Test
  void contradicting_filters_admit_no_id_at_all() {
    Set<String> ids =
        KeyFilters.narrow(
            new Filter[] {new EqualTo("id", "a"), new EqualTo("id", "b")}, "id", new ArrayList<>());

    assertThat(ids).isEmpty();
  }
}
