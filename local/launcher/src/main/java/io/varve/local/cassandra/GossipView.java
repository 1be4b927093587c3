package io.varve.local.cassandra;

import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Which nodes a running node holds alive, read in this JVM from the node's local-only JMX port: the
 * {@code LiveNodes} of Cassandra's {@code StorageService}, its failure detector's view (the "U" of
 * {@code nodetool status}). A node answering CQL is not yet enough for a quorum that needs it:
 * until the coordinator's gossip has marked it alive, the coordinator sends it no writes.
 */
final class GossipView {

  static final String STORAGE_SERVICE = "org.apache.cassandra.db:type=StorageService";

  private GossipView() {}

  /**
   * The addresses (no port) that {@code node} holds alive, itself included.
   *
   * @throws IOException if its JMX port does not answer, or answers something else than Cassandra
   */
  static Set<String> liveNodes(LocalCassandraSettings node) throws IOException {
    JMXServiceURL url =
        new JMXServiceURL(
            "service:jmx:rmi:///jndi/rmi://"
                + LocalCassandraSettings.ADDRESS
                + ":"
                + node.jmxPort()
                + "/jmxrmi");
    try (JMXConnector connector = JMXConnectorFactory.connect(url, null)) {
      Object live =
          connector
              .getMBeanServerConnection()
              .getAttribute(new ObjectName(STORAGE_SERVICE), "LiveNodes");
      if (!(live instanceof Collection<?> addresses)) {
        throw new IOException(
            "StorageService.LiveNodes of " + node.address() + " is not a list: " + live);
      }
      Set<String> names = new LinkedHashSet<>();
      addresses.forEach(address -> names.add(String.valueOf(address)));
      return names;
    } catch (JMException e) {
      throw new IOException(
          "Cannot read StorageService.LiveNodes of " + node.address() + ": " + e, e);
    }
  }
}
