package io.varve.reshaper.compaction;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Turns the target table's compaction off for the load and back on afterwards. Cassandra keeps its
 * strategy with {@code 'enabled': 'false'}; ScyllaDB switches to {@code NullCompactionStrategy}.
 * The original setting is saved to a file beside the savepoint before it is changed, so a job
 * killed while compaction is off restores the right setting on its next run.
 */
public final class CompactionControl {
  private final CqlSession session;
  private final String table;
  private final boolean scylla;
  private final Path saved;

  /**
   * @param saved the file that keeps the original setting while the load runs
   */
  public CompactionControl(CqlSession session, String qualifiedTable, boolean scylla, Path saved) {
    this.session = session;
    this.table = qualifiedTable;
    this.scylla = scylla;
    this.saved = saved;
  }

  /** Disables compaction; returns the CQL map of the setting that {@link #restore} puts back. */
  public String disable(TableMetadata metadata) {
    String original;
    try {
      if (Files.exists(saved)) {
        original = Files.readString(saved).trim();
      } else {
        original = cqlMap(compactionOf(metadata));
        Files.createDirectories(saved.toAbsolutePath().getParent());
        Files.writeString(saved, original);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the compaction setting in " + saved, e);
    }
    String off;
    if (scylla) {
      off = "{'class': 'NullCompactionStrategy'}";
    } else {
      Map<String, String> disabled = new TreeMap<>(compactionOf(metadata));
      disabled.put("enabled", "false");
      off = cqlMap(disabled);
    }
    session.execute("ALTER TABLE " + table + " WITH compaction = " + off);
    return original;
  }

  /** Puts the original setting back and forgets it. */
  public void restore(String original) {
    session.execute("ALTER TABLE " + table + " WITH compaction = " + original);
    try {
      Files.deleteIfExists(saved);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> compactionOf(TableMetadata metadata) {
    Object value = metadata.getOptions().get(CqlIdentifier.fromInternal("compaction"));
    return value instanceof Map<?, ?> m ? new TreeMap<>((Map<String, String>) m) : new TreeMap<>();
  }

  static String cqlMap(Map<String, String> options) {
    return options.entrySet().stream()
        .map(
            e ->
                "'"
                    + e.getKey().replace("'", "''")
                    + "': '"
                    + e.getValue().replace("'", "''")
                    + "'")
        .collect(Collectors.joining(", ", "{", "}"));
  }
}
