package io.varve.bench.binding.cql;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.varve.bench.binding.BindingOptions;
import io.varve.bench.load.CassandraJmx;
import io.varve.bench.load.LoadSource;
import io.varve.bench.load.PageCache;
import io.varve.bench.load.ServerLoadOptions;
import io.varve.options.OptionValues;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import site.ycsb.DBException;

/**
 * The Cassandra nodes' thread pools, read every second from each node's {@code
 * system_views.thread_pools} through a session of the {@code cql} binding's connection properties,
 * and summed over the nodes: levels {@code cql.pending}, {@code cql.blocked} (every pool) and
 * {@code cql.pending.<pool>}, {@code cql.active.<pool>} of the pools a workload loads (mutation
 * stage, read stage, native transport requests); totals {@code cql.blocked_all_time} and {@code
 * cql.completed.<pool>}. With it, over JMX ({@link CassandraJmx}), the nodes' CPU and dropped
 * messages. ScyllaDB has no {@code system_views.thread_pools} (its figures are in its own
 * Prometheus metrics): against it the source is dropped with a warning (untested here).
 */
public final class CqlNodeLoad implements LoadSource {

  /** The pools shown one by one, by their names in the table. */
  static final Set<String> POOLS =
      Set.of("mutation_stage", "read_stage", "native_transport_requests");

  private static final SimpleStatement POOLS_QUERY =
      SimpleStatement.newInstance(
              "SELECT name, active_tasks, pending_tasks, blocked_tasks, blocked_tasks_all_time,"
                  + " completed_tasks FROM system_views.thread_pools")
          .setTimeout(Duration.ofSeconds(2));

  private final CqlSession session;
  private final CassandraJmx jmx;
  private Map<String, Double> levels = Map.of();

  private CqlNodeLoad(CqlSession session, CassandraJmx jmx) {
    this.session = session;
    this.jmx = jmx;
  }

  /**
   * The nodes' load when the properties ask for it ({@code serverload.cql}, on by default for the
   * {@code cql} binding); empty otherwise.
   */
  public static List<LoadSource> sources(String binding, Properties props, PrintStream warnings)
      throws DBException {
    OptionValues load = BindingOptions.read(ServerLoadOptions.ALL, props);
    if (!load.optional(ServerLoadOptions.CQL).orElse("cql".equals(binding))) {
      return List.of();
    }
    CqlSession session;
    try {
      // a bad connection property is the binding's to refuse, as it starts
      session = CqlConnection.session(BindingOptions.read(CqlOptions.ALL, props), 1);
    } catch (DBException e) {
      warnings.println("load: the Cassandra nodes are not sampled: " + e.getMessage());
      return List.of();
    }
    List<LoadSource> sources = new ArrayList<>();
    int port = load.get(ServerLoadOptions.JMX_PORT);
    CassandraJmx jmx = null;
    if (port > 0) {
      jmx = CassandraJmx.connect(hosts(session), port, warnings);
    }
    sources.add(new CqlNodeLoad(session, jmx));
    return sources;
  }

  /**
   * {@code --cold} ({@code serverload.cold}): before the run, every node reached as {@code
   * serverload.cql} reaches them flushes its tables and empties its key, row and counter caches
   * over JMX, and the page cache of this machine is dropped when the nodes run on it. Refused when
   * no node is reached or one does not answer over JMX; prints what was done.
   */
  public static void coldStart(String binding, Properties props, PrintStream out)
      throws DBException {
    OptionValues load = BindingOptions.read(ServerLoadOptions.ALL, props);
    if (!load.get(ServerLoadOptions.COLD)) {
      return;
    }
    if (!load.optional(ServerLoadOptions.CQL).orElse("cql".equals(binding))) {
      throw new DBException(
          "serverload.cold: true (expected: a run that reaches its Cassandra nodes: the cql binding,"
              + " or serverload.cql=true with their hosts and port)");
    }
    int port = load.get(ServerLoadOptions.JMX_PORT);
    if (port == 0) {
      throw new DBException(
          "serverload.jmxPort: 0 (expected: the nodes' JMX port: serverload.cold empties their"
              + " caches over JMX)");
    }
    try (CqlSession session =
        CqlConnection.session(BindingOptions.read(CqlOptions.ALL, props), 1)) {
      List<String> hosts = hosts(session);
      List<String> keyspaces = new ArrayList<>();
      session
          .getMetadata()
          .getKeyspaces()
          .keySet()
          .forEach(
              k -> {
                String name = k.asInternal();
                if (!name.startsWith("system")) {
                  keyspaces.add(name);
                }
              });
      try (CassandraJmx jmx = CassandraJmx.connect(hosts, port, out)) {
        if (jmx.nodes() < hosts.size()) {
          throw new DBException(
              "serverload.cold: JMX answered on "
                  + jmx.nodes()
                  + " of the "
                  + hosts.size()
                  + " nodes "
                  + hosts
                  + " at port "
                  + port
                  + " (expected: every node, to empty its caches)");
        }
        jmx.cold(keyspaces);
      } catch (DBException e) {
        throw e;
      } catch (Exception e) {
        throw new DBException("serverload.cold: the nodes could not be made cold: " + e, e);
      }
      boolean here =
          hosts.stream()
              .allMatch(h -> h.equals("localhost") || h.startsWith("127.") || h.equals("::1"));
      String pageCache = here ? PageCache.drop() : "the nodes run on other machines";
      out.println(
          "cold: "
              + hosts.size()
              + " node(s) flushed "
              + keyspaces.size()
              + " keyspace(s) and emptied their key, row and counter caches (Cassandra's chunk"
              + " cache empties only on a restart); the OS page cache "
              + (pageCache.isEmpty() ? "was dropped" : "was not dropped: " + pageCache));
      if (binding.startsWith("varve")) {
        out.println(
            "cold: the Varve server's own caches (KeyValue point reads, immutable ranges) are not"
                + " emptied: restart the server for a cold one");
      }
    }
  }

  /** The address of each node the session knows. */
  private static List<String> hosts(CqlSession session) {
    List<String> hosts = new ArrayList<>();
    for (Node node : session.getMetadata().getNodes().values()) {
      node.getBroadcastRpcAddress()
          .map(InetSocketAddress::getHostString)
          .or(() -> Optional.of(((InetSocketAddress) node.getEndPoint().resolve()).getHostString()))
          .ifPresent(hosts::add);
    }
    return hosts;
  }

  @Override
  public String name() {
    return "Cassandra nodes (system_views.thread_pools)";
  }

  @Override
  public Map<String, Double> totals() throws Exception {
    Map<String, Double> totals = new TreeMap<>();
    Map<String, Double> now = new TreeMap<>();
    for (Node node : session.getMetadata().getNodes().values()) {
      for (Row row : session.execute(POOLS_QUERY.setNode(node))) {
        // MutationStage, Native-Transport-Requests: mutation_stage, native_transport_requests
        String pool =
            row.getString("name")
                .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
                .replace('-', '_')
                .toLowerCase(Locale.ROOT);
        double pending = number(row, "pending_tasks");
        double blocked = number(row, "blocked_tasks");
        now.merge("cql.pending", pending, Double::sum);
        now.merge("cql.blocked", blocked, Double::sum);
        totals.merge("cql.blocked_all_time", number(row, "blocked_tasks_all_time"), Double::sum);
        if (POOLS.contains(pool)) {
          now.merge("cql.pending." + pool, pending, Double::sum);
          now.merge("cql.active." + pool, number(row, "active_tasks"), Double::sum);
          totals.merge("cql.completed." + pool, number(row, "completed_tasks"), Double::sum);
        }
      }
    }
    levels = now;
    if (jmx != null) {
      totals.putAll(jmx.totals());
    }
    return totals;
  }

  private static double number(Row row, String column) {
    Object value = row.getObject(column);
    return value instanceof Number n ? n.doubleValue() : 0;
  }

  /** The levels read with the last totals (one query a node per sample). */
  @Override
  public Map<String, Double> levels() {
    return levels;
  }

  @Override
  public void close() {
    if (jmx != null) {
      jmx.close();
    }
    session.close();
  }
}
