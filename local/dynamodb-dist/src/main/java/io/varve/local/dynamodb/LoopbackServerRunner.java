package io.varve.local.dynamodb;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Runs DynamoDB Local like its own {@code ServerRunner}, with the same command-line options ({@code
 * -port}, {@code -inMemory}, {@code -dbPath}, {@code -sharedDb}, {@code -disableTelemetry}, ...),
 * but listening on one address only: {@value #DEFAULT_HOST} unless the system property {@value
 * #HOST_PROPERTY} names another.
 *
 * <p>{@code ServerRunner} builds its Jetty server with a port and no host, so it listens on every
 * interface, and offers no option to change that. This runner builds the server the same way and
 * sets the host of its connectors before starting it.
 */
public final class LoopbackServerRunner {

  /** The system property naming the address to listen on. */
  public static final String HOST_PROPERTY = "varve.dynamodb.host";

  /** The address listened on by default. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  private LoopbackServerRunner() {}

  /** Starts DynamoDB Local with {@code ServerRunner}'s arguments; exits with 1 if it cannot. */
  public static void main(String[] args) throws Exception {
    String host = System.getProperty(HOST_PROPERTY, DEFAULT_HOST);
    DynamoDBProxyServer proxy;
    try {
      proxy = ServerRunner.createServerFromCommandLineArgs(args);
    } catch (Exception e) {
      System.err.println("DynamoDB Local: bad arguments: " + e.getMessage());
      System.exit(1);
      return;
    }
    bind(jettyServer(proxy), host);
    proxy.start();
    System.out.println("DynamoDB Local listening on " + host);
    proxy.join();
  }

  private static Server jettyServer(DynamoDBProxyServer proxy) throws ReflectiveOperationException {
    // DynamoDBProxyServer keeps its Jetty server private and exposes no accessor.
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    return (Server) field.get(proxy);
  }

  private static void bind(Server server, String host) {
    Connector[] connectors = server.getConnectors();
    if (connectors.length == 0) {
      throw new IllegalStateException("DynamoDB Local's server has no connector to bind");
    }
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector network)) {
        throw new IllegalStateException(
            "DynamoDB Local's server has an unexpected connector "
                + connector.getClass().getName()
                + "; cannot restrict it to "
                + host);
      }
      network.setHost(host);
    }
  }
}
