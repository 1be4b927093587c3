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
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;

/**
 * The Hadoop file system side of a Parquet side: its configuration (the job's {@code
 * spark.hadoop.*} options, then the side's S3 keys), the files of a source path, and their schemas.
 */
public final class ParquetFiles {

  private ParquetFiles() {}

  /** Hadoop's configuration for {@code side}: defaults, {@code spark.hadoop.*}, the side's keys. */
  public static Configuration configuration(ParquetSettings side, Map<String, String> spark) {
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
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
        while (files.hasNext()) {
          LocatedFileStatus f = files.next();
          if (!hidden(root, f.getPath())) {
            found.add(f);
          }
        }
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

  /** True for a path under {@code root} with a part that starts with {@code .} or {@code _}. */
  static boolean hidden(Path root, Path file) {
    for (Path p = file; p != null && !p.equals(root); p = p.getParent()) {
      String name = p.getName();
      if (name.startsWith(".") || name.startsWith("_")) {
        return true;
      }
    }
    return false;
  }

  /** Wraps an I/O failure of a task. */
  static UncheckedIOException failure(String what, IOException e) {
    return new UncheckedIOException(what + ": " + e.getMessage(), e);
  }
}
