package io.varve.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Cassandra nodes over JMX (no authentication), their figures summed over the nodes: {@code
 * cql.cpu_ms} (the node processes' CPU time), {@code cql.dropped} (messages dropped, every verb)
 * and {@code cql.dropped_mutations} (those of mutations). A node whose JMX port does not answer
 * within 5 s is left out with a warning; none answering leaves the source empty.
 */
public final class CassandraJmx implements LoadSource {

  public static final String CPU_MS = "cql.cpu_ms";
  public static final String DROPPED = "cql.dropped";
  public static final String DROPPED_MUTATIONS = "cql.dropped_mutations";

  private static final ObjectName OS = name("java.lang:type=OperatingSystem");
  private static final ObjectName DROPPED_ALL =
      name("org.apache.cassandra.metrics:type=DroppedMessage,name=Dropped,*");

  private static final ObjectName STORAGE_SERVICE =
      name("org.apache.cassandra.db:type=StorageService");
  private static final ObjectName CACHES = name("org.apache.cassandra.db:type=Caches");

  private final List<JMXConnector> connectors;
  private final List<MBeanServerConnection> nodes;

  private CassandraJmx(List<JMXConnector> connectors, List<MBeanServerConnection> nodes) {
    this.connectors = connectors;
    this.nodes = nodes;
  }

  /** Connects to each host's JMX port; a host that does not answer is warned about and skipped. */
  public static CassandraJmx connect(List<String> hosts, int port, PrintStream warnings) {
    List<JMXConnector> connectors = new ArrayList<>();
    List<MBeanServerConnection> nodes = new ArrayList<>();
    ExecutorService connecting =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "bench-jmx-connect");
              t.setDaemon(true);
              return t;
            });
    try {
      for (String host : hosts) {
        String url = "service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi";
        Future<JMXConnector> connection =
            connecting.submit(() -> JMXConnectorFactory.connect(new JMXServiceURL(url)));
        try {
          JMXConnector connector = connection.get(5, TimeUnit.SECONDS);
          connectors.add(connector);
          nodes.add(connector.getMBeanServerConnection());
        } catch (Exception e) {
          connection.cancel(true);
          warnings.println(
              "load: no JMX at "
                  + host
                  + ":"
                  + port
                  + " (serverload.jmxPort), so no CPU or dropped messages of that node: "
                  + rootMessage(e));
        }
      }
    } finally {
      connecting.shutdownNow();
    }
    return new CassandraJmx(connectors, nodes);
  }

  /** How many nodes answered. */
  public int nodes() {
    return nodes.size();
  }

  @Override
  public String name() {
    return "Cassandra JMX";
  }

  @Override
  public Map<String, Double> totals() throws Exception {
    double cpuNanos = 0;
    double dropped = 0;
    double droppedMutations = 0;
    for (MBeanServerConnection node : nodes) {
      cpuNanos += ((Number) node.getAttribute(OS, "ProcessCpuTime")).doubleValue();
      for (ObjectName meter : node.queryNames(DROPPED_ALL, null)) {
        double count = ((Number) node.getAttribute(meter, "Count")).doubleValue();
        dropped += count;
        String scope = meter.getKeyProperty("scope");
        if (scope != null && scope.toUpperCase(java.util.Locale.ROOT).contains("MUTATION")) {
          droppedMutations += count;
        }
      }
    }
    Map<String, Double> out = new TreeMap<>();
    if (!nodes.isEmpty()) {
      out.put(CPU_MS, cpuNanos / 1e6);
      out.put(DROPPED, dropped);
      out.put(DROPPED_MUTATIONS, droppedMutations);
    }
    return out;
  }

  /**
   * Makes every node that answered cold for the next run: flushes the tables of {@code keyspaces}
   * (so that reads go to SSTables) and empties its key, row and counter caches. Cassandra has no
   * operation that empties its chunk cache: a restart does.
   */
  public void cold(List<String> keyspaces) throws Exception {
    for (MBeanServerConnection node : nodes) {
      for (String keyspace : keyspaces) {
        node.invoke(
            STORAGE_SERVICE,
            "forceKeyspaceFlush",
            new Object[] {keyspace, new String[0]},
            new String[] {String.class.getName(), String[].class.getName()});
      }
      for (String cache :
          List.of("invalidateKeyCache", "invalidateRowCache", "invalidateCounterCache")) {
        node.invoke(CACHES, cache, new Object[0], new String[0]);
      }
    }
  }

  @Override
  public void close() {
    for (JMXConnector connector : connectors) {
      try {
        connector.close();
      } catch (IOException e) {
        // closing a monitoring connection: nothing to keep
      }
    }
  }

  private static ObjectName name(String name) {
    try {
      return new ObjectName(name);
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }
}
