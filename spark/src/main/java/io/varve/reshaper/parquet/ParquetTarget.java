package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.RowWriter;
import io.varve.reshaper.copy.TargetSide;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TableSchema;
import io.varve.reshaper.plan.TableSchema.Column;
import io.varve.reshaper.plan.WorkUnit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A Parquet target: a directory that receives one file per unit of work, {@code
 * part-<unit>.parquet}, written under a hidden name and renamed into place once the unit is read
 * whole, so that a rerun writes an unfinished unit again and no row is there twice. On the driver,
 * {@link #schema} gives the planner the target it writes (the source's columns after {@code
 * renames} and {@code drop}, their types kept) and {@link #checkDirectory} refuses a directory that
 * holds other files on a first run.
 */
public final class ParquetTarget implements TargetSide {
  private static final long serialVersionUID = 1L;
  private static final String KEY = "target.path";
  private static final Pattern PART = Pattern.compile("part-\\d{5,}\\.parquet");
  private final MigrationPlan plan;
  private final JobConfig config;

  public ParquetTarget(MigrationPlan plan, JobConfig config) {
    this.plan = plan;
    this.config = config;
  }

  /** The target the planner sees: the source's columns renamed, without those dropped. */
  public static TableSchema schema(JobConfig config, TableSchema source) {
    if (!config.constants().isEmpty()) {
      String name = config.constants().keySet().iterator().next();
      throw new ConfigException(
          "constants." + name,
          config.constants().get(name),
          "no constants: a Parquet target's columns are the source's, and a constant has no type");
    }
    if (config.timeSlice() != null) {
      throw new ConfigException(
          "timeSlice", "{...}", "no timeSlice section: a Parquet target is not a slice table");
    }
    Map<CqlIdentifier, CqlIdentifier> renames = config.renamed();
    Set<CqlIdentifier> dropped = config.dropped();
    List<Column> key = new ArrayList<>();
    List<Column> clustering = new ArrayList<>();
    List<Column> others = new ArrayList<>();
    for (Column c : source.columns()) {
      if (dropped.contains(c.name())) {
        continue;
      }
      Column renamed = new Column(renames.getOrDefault(c.name(), c.name()), c.type());
      (source.partitionKey().contains(c)
              ? key
              : source.clustering().contains(c) ? clustering : others)
          .add(renamed);
    }
    return new TableSchema(
        CqlIdentifier.fromInternal("parquet"),
        CqlIdentifier.fromInternal(config.target().fileName()),
        key,
        clustering,
        others);
  }

  /**
   * Refuses a target directory that holds anything but this job's files ({@code part-NNNNN.parquet}
   * and hidden unfinished ones): other files would mix with the job's. A rerun, or a run after one
   * killed before its savepoint was written, finds only its own files there; those of units not
   * recorded as done are written again.
   */
  public static void checkDirectory(JobConfig config) {
    String path = config.target().parquet().path();
    Configuration conf = ParquetFiles.configuration(config.target().parquet(), config.spark());
    try {
      Path dir = new Path(path);
      FileSystem fs = dir.getFileSystem(conf);
      if (!fs.exists(dir)) {
        return;
      }
      if (fs.getFileStatus(dir).isFile()) {
        throw new ConfigException(KEY, path, "a directory, but it is a file");
      }
      for (FileStatus f : fs.listStatus(dir)) {
        String name = f.getPath().getName();
        if (!name.startsWith(".") && !(f.isFile() && PART.matcher(name).matches())) {
          throw new ConfigException(
              KEY,
              path,
              "an absent or empty directory, or one that holds only this job's part-NNNNN.parquet"
                  + " files, but it holds "
                  + name);
        }
      }
    } catch (IOException e) {
      throw new ConfigException(KEY + ": " + path + " cannot be read: " + e.getMessage(), e);
    }
  }

  @Override
  public RowWriter open(WorkUnit unit, BadRows bad, double rowsPerSecond, double bytesPerSecond) {
    if (unit == null) {
      throw new IllegalStateException("a Parquet target is written one unit of work at a time");
    }
    Configuration conf = ParquetFiles.configuration(config.target().parquet(), config.spark());
    Path dir = new Path(config.target().parquet().path());
    return new UnitFileWriter(
        conf,
        new Path(dir, String.format("part-%05d.parquet", unit.index())),
        plan.target().internalNames(),
        plan.target().types(),
        rowsPerSecond,
        bytesPerSecond);
  }
}
