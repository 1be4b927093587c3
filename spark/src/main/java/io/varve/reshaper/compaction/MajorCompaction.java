package io.varve.reshaper.compaction;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A major compaction of one table on one node, over JMX: what {@code nodetool compact} does. CQL
 * has no statement for it. On ScyllaDB the same MBean is served by scylla-jmx; its REST API ({@code
 * POST /storage_service/keyspace_compaction/<ks>?cf=<table>} on port 10000) is the alternative.
 */
public final class MajorCompaction {
  private MajorCompaction() {}

  /** Compacts {@code keyspace.table} on the node at {@code jmx}; blocks until it is done. */
  public static void run(
      InetSocketAddress jmx, String username, String password, String keyspace, String table)
      throws Exception {
    JMXServiceURL url =
        new JMXServiceURL(
            "service:jmx:rmi:///jndi/rmi://"
                + jmx.getHostString()
                + ":"
                + jmx.getPort()
                + "/jmxrmi");
    Map<String, Object> env = new HashMap<>();
    if (username != null) {
      env.put(JMXConnector.CREDENTIALS, new String[] {username, password});
    }
    try (JMXConnector connector = JMXConnectorFactory.connect(url, env)) {
      MBeanServerConnection server = connector.getMBeanServerConnection();
      server.invoke(
          new ObjectName("org.apache.cassandra.db:type=StorageService"),
          "forceKeyspaceCompaction",
          new Object[] {false, keyspace, new String[] {table}},
          new String[] {"boolean", String.class.getName(), String[].class.getName()});
    }
  }
}
