package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Checks a job against the source and target schemas and builds its {@link MigrationPlan} in four
 * steps: the column mapping, the select list, the target layout (with the slice's computed keys of
 * a {@code timeSlice} job, {@link SliceKeys}, checked first) and the resolution of colliding rows.
 * Every refusal is a {@link ConfigException} naming the key, the value and what was expected,
 * raised before anything is written. Pure: no database, no Spark.
 */
public final class Planner {

  private final JobConfig config;
  private final TableSchema source;
  private final TableSchema target;

  private final boolean compareTimes;

  /** A planner of {@code config} from {@code source} to {@code target}. */
  public Planner(JobConfig config, TableSchema source, TableSchema target) {
    this(config, source, target, false);
  }

  /**
   * A planner that also reads the writetime and TTL of each copied regular column when {@code
   * compareTimes} (validation's {@code compareTimestamps}).
   */
  public Planner(JobConfig config, TableSchema source, TableSchema target, boolean compareTimes) {
    this.config = config;
    this.source = source;
    this.target = target;
    this.compareTimes = compareTimes;
  }

  /** Checks everything and returns the plan. */
  public MigrationPlan plan() {
    if (isCounterTable(source) || isCounterTable(target)) {
      throw new ConfigException(
          "target.table",
          config.target().qualifiedTable(),
          "a table without counter columns (counter tables are not supported)");
    }
    if (config.source().isParquet()
        && config.reshape().onConflict()
            == io.varve.reshaper.config.OnConflict.KEEP_NEWEST_WRITETIME) {
      throw new ConfigException(
          "reshape.onConflict",
          config.reshape().onConflict(),
          "keepMax, keepMin or fail: the rows of Parquet files have no writetime");
    }
    SliceKeys.check(config, source, target);
    ColumnMapping mapping = ColumnMapping.of(config, source, target);
    SelectList select = SelectList.of(config, source, mapping, compareTimes);
    TargetLayout layout =
        TargetLayout.of(
            target, mapping, select, config.source().preserveTimestamps() || compareTimes);
    SliceKeys sliceKeys = SliceKeys.of(config, layout);
    Resolution resolution = Resolution.of(config, source, target, mapping, layout, select);
    SourceScan scan = select.scan(source, config.source().where());
    List<String> moved =
        new ArrayList<>(
            List.of(
                config.source().keyspace() + "." + config.source().table(),
                scan.selectCql(),
                layout.insertCql(),
                String.valueOf(resolution.onConflict())));
    if (sliceKeys != null) {
      // only then: the fingerprints of other jobs stay those of earlier versions
      moved.add(sliceKeys.describe());
    }
    return new MigrationPlan(
        scan, layout, sliceKeys, resolution, fingerprint(moved.toArray(String[]::new)));
  }

  private static boolean isCounterTable(TableSchema table) {
    return table.columns().stream().anyMatch(c -> c.type().equals(DataTypes.COUNTER));
  }

  /**
   * Identifies the data movement in savepoints; part of the savepoint format, so a plan that moves
   * the same data keeps the same fingerprint from one version to the next.
   */
  public static String fingerprint(String... parts) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        digest.update(part.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
      }
      return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
