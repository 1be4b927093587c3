package io.varve.reshaper.parquet;

import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.ParquetSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;

/**
 * The Hadoop file system side of a Parquet side: its configuration (the job's {@code
 * spark.hadoop.*} options, then the side's S3 keys), the files of a source path, and their schemas.
 */
public final class ParquetFiles {

  private ParquetFiles() {}

  /**
   * Hadoop's configuration for {@code side}: defaults, {@code spark.hadoop.*}, the side's keys. One
   * per side and JVM (reading Hadoop's default resources costs milliseconds a unit would pay);
   * callers do not change it.
   */
  public static Configuration configuration(ParquetSettings side, Map<String, String> spark) {
    return CONFIGURATIONS.computeIfAbsent(
        Map.entry(side, Map.copyOf(spark)), k -> newConfiguration(side, spark));
  }

  private static final Map<Map.Entry<ParquetSettings, Map<String, String>>, Configuration>
      CONFIGURATIONS = new java.util.concurrent.ConcurrentHashMap<>();

  private static Configuration newConfiguration(ParquetSettings side, Map<String, String> spark) {
    Configuration conf = new Configuration();
    spark.forEach(
        (k, v) -> {
          if (k.startsWith("spark.hadoop.")) {
            conf.set(k.substring("spark.hadoop.".length()), v);
          }
        });
    side.hadoopOptions().forEach(conf::set);
    return conf;
  }

  /**
   * The files of a source path, sorted by path: the file itself, or every file under the directory
   * whose name does not start with {@code .} or {@code _} (Spark's and Hadoop's markers and
   * temporary files), in no hidden directory.
   */
  public static List<ParquetFile> list(String key, String path, Configuration conf) {
    try {
      FileSystem fs = new Path(path).getFileSystem(conf);
      Path root = fs.makeQualified(new Path(path));
      if (!fs.exists(root)) {
        throw new ConfigException(key, path, "an existing Parquet file or directory");
      }
      FileStatus status = fs.getFileStatus(root);
      List<FileStatus> found = new ArrayList<>();
      if (status.isFile()) {
        found.add(status);
      } else {
        collect(fs, root, found);
      }
      found.sort(Comparator.comparing(f -> f.getPath().toString()));
      if (found.isEmpty()) {
        throw new ConfigException(
            key, path, "a directory that holds Parquet files, but it has none");
      }
      List<ParquetFile> units = new ArrayList<>(found.size());
      for (FileStatus f : found) {
        units.add(new ParquetFile(units.size(), f.getPath().toString(), f.getLen()));
      }
      return units;
    } catch (IOException e) {
      throw new ConfigException(key + ": " + path + " cannot be listed: " + e.getMessage(), e);
    }
  }

  /**
   * Adds the files under {@code dir} that are not hidden, walking subdirectories: with plain
   * listings, since a located listing of a local directory asks the shell for each file's
   * permissions (a process per file).
   */
  private static void collect(FileSystem fs, Path dir, List<FileStatus> found) throws IOException {
    for (FileStatus f : fs.listStatus(dir)) {
      String name = f.getPath().getName();
      if (name.startsWith(".") || name.startsWith("_")) {
        continue;
      }
      if (f.isDirectory()) {
        collect(fs, f.getPath(), found);
      } else {
        found.add(f);
      }
    }
  }

  /** The schema in a file's footer; a file that is not Parquet is refused under {@code key}. */
  public static MessageType schema(String key, ParquetFile file, Configuration conf) {
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(new Path(file.path()), conf))) {
      return reader.getFooter().getFileMetaData().getSchema();
    } catch (RuntimeException | IOException e) {
      throw new ConfigException(
          key, file.path(), "a Parquet file, but its footer cannot be read: " + e.getMessage());
    }
  }

  /** Wraps an I/O failure of a task. */
  static UncheckedIOException failure(String what, IOException e) {
    return new UncheckedIOException(what + ": " + e.getMessage(), e);
  }
}
