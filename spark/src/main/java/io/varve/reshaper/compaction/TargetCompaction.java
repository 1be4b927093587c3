package io.varve.reshaper.compaction;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import io.varve.reshaper.config.JobConfig;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The target's compaction around a copy, as the {@code compaction} section asks: off for the load
 * and restored when this is closed, and a major compaction on every node afterwards. Progress goes
 * to {@code err}.
 */
public final class TargetCompaction implements AutoCloseable {
  private final CompactionControl control;
  private final String original;
  private final String table;
  private final PrintStream err;

  private TargetCompaction(
      CompactionControl control, String original, String table, PrintStream err) {
    this.control = control;
    this.original = original;
    this.table = table;
    this.err = err;
  }

  /**
   * Turns compaction off when {@code compaction.disableDuringLoad} asks for it and the job copies;
   * otherwise changes nothing.
   */
  public static TargetCompaction disableIfAsked(
      JobConfig config, boolean copies, CqlSession session, TableMetadata target, PrintStream err) {
    String table = config.target().qualifiedTable();
    if (!copies || !config.compaction().disableDuringLoad()) {
      return new TargetCompaction(null, null, table, err);
    }
    CompactionControl control =
        new CompactionControl(
            session,
            table,
            config.target().isScylla(),
            Path.of(config.savepoints().path()).resolve(config.jobName() + ".compaction"));
    String original = control.disable(target);
    err.println(
        "migrate: compaction of "
            + table
            + " disabled for the load; it will be"
            + " restored to "
            + original);
    return new TargetCompaction(control, original, table, err);
  }

  /** Restores the original setting, if it was changed. */
  @Override
  public void close() {
    if (control != null) {
      control.restore(original);
      err.println("migrate: compaction of " + table + " restored");
    }
  }

  /**
   * A major compaction of the target table on every node over JMX; a node that cannot be reached
   * gets a warning telling to run {@code nodetool compact} instead.
   */
  public static void major(JobConfig config, CqlSession session, PrintStream err) {
    String keyspace = config.target().keyspace();
    String table = config.target().table();
    for (Node node : session.getMetadata().getNodes().values()) {
      String host =
          node.getBroadcastRpcAddress()
              .map(a -> a.getAddress().getHostAddress())
              .orElse(node.getEndPoint().resolve().toString());
      InetSocketAddress jmx = new InetSocketAddress(host, config.compaction().jmxPort());
      try {
        err.println(
            "migrate: major compaction of "
                + config.target().qualifiedTable()
                + " on "
                + host
                + ":"
                + jmx.getPort()
                + "...");
        MajorCompaction.run(
            jmx,
            config.compaction().jmxUsername(),
            config.compaction().jmxPassword(),
            keyspace,
            table);
      } catch (Exception e) {
        err.println(
            "migrate: warning: major compaction on "
                + host
                + ":"
                + jmx.getPort()
                + " failed ("
                + e
                + "); run nodetool compact "
                + keyspace
                + " "
                + table
                + " on each node");
      }
    }
    err.println("migrate: major compaction done");
  }
}
