package io.varve.reshaper;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Generated data of the users' case: ids_by_partnerid, a history table. */
public final class UsersCase {
  public static final String HISTORY_DDL =
      "(partnerid text, id text, date timestamp,"
          + " PRIMARY KEY ((partnerid), date, id)) WITH CLUSTERING ORDER BY (date DESC)";
  public static final String COMPACT_DDL =
      "(partnerid text, id text, seen_date timestamp," + " PRIMARY KEY ((partnerid), id))";

  /** One source row. */
  public record Row(String partnerid, String id, Instant date) {}

  private UsersCase() {}

  /** Rows of {@code partners} partners with a few ids each, seen at 1 to 4 distinct hours. */
  public static List<Row> generate(int partners, long seed) {
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    long hour = 3_600_000L;
    long base = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    for (int p = 0; p < partners; p++) {
      int ids = 1 + random.nextInt(6);
      for (int i = 0; i < ids; i++) {
        int seen = 1 + random.nextInt(4);
        for (int s = 0; s < seen; s++) {
          rows.add(
              new Row(
                  "partner-" + p,
                  "id-" + random.nextInt(50),
                  Instant.ofEpochMilli(base + (long) random.nextInt(24 * 365) * hour)));
        }
      }
    }
    return rows;
  }

  /** Writes rows to {@code ks.table} (history schema). */
  public static void insert(CassandraFixture db, String table, List<Row> rows) {
    PreparedStatement insert =
        db.session.prepare(
            "INSERT INTO " + db.keyspace + "." + table + " (partnerid, id, date) VALUES (?, ?, ?)");
    List<java.util.concurrent.CompletionStage<?>> pending = new ArrayList<>();
    for (Row r : rows) {
      pending.add(db.session.executeAsync(insert.bind(r.partnerid(), r.id(), r.date())));
      if (pending.size() >= 64) {
        pending.forEach(f -> f.toCompletableFuture().join());
        pending.clear();
      }
    }
    pending.forEach(f -> f.toCompletableFuture().join());
  }

  /** The compact table the users want: per (partnerid, id), the latest date. */
  public static Map<String, Instant> latestByPartnerAndId(List<Row> rows) {
    Map<String, Instant> latest = new TreeMap<>();
    for (Row r : rows) {
      latest.merge(r.partnerid() + "/" + r.id(), r.date(), (a, b) -> a.isAfter(b) ? a : b);
    }
    return latest;
  }

  /** The rows of a table of the history schema, {@code keyspace.table}, as a set. */
  public static java.util.Set<Row> read(
      com.datastax.oss.driver.api.core.CqlSession session, String table) {
    return session.execute("SELECT partnerid, id, date FROM " + table).all().stream()
        .map(r -> new Row(r.getString(0), r.getString(1), r.getInstant(2)))
        .collect(java.util.stream.Collectors.toSet());
  }
}
