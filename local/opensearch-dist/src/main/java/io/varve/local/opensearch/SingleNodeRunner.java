package io.varve.local.opensearch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.opensearch.Version;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.plugins.PluginInfo;
import org.opensearch.transport.Netty4ModulePlugin;

/**
 * Runs one OpenSearch node from the jars beside it, without an OpenSearch distribution: the
 * settings come from {@code <home>/config/opensearch.yml}, the logging from {@code
 * <home>/config/log4j2.properties}, and the Netty 4 transport (HTTP and node-to-node), which a
 * distribution loads from its {@code modules/} directory, is given to the node as a classpath
 * plugin.
 *
 * <p>The home directory is named by the system property {@value #HOME_PROPERTY}. The node stops
 * cleanly on SIGTERM; the process exits with 1 if the node cannot start.
 */
public final class SingleNodeRunner {

  /** The system property naming the node's home directory. */
  public static final String HOME_PROPERTY = "varve.opensearch.home";

  private SingleNodeRunner() {}

  /** Starts the node and blocks until the JVM is asked to exit. */
  public static void main(String[] args) throws Exception {
    String home = System.getProperty(HOME_PROPERTY);
    if (home == null || home.isBlank()) {
      System.err.println("OpenSearch: the system property " + HOME_PROPERTY + " is not set");
      System.exit(1);
    }
    Path homeDirectory = Path.of(home).toAbsolutePath();
    Environment environment =
        InternalSettingsPreparer.prepareEnvironment(
            Settings.builder()
                .put(Environment.PATH_HOME_SETTING.getKey(), homeDirectory.toString())
                .build(),
            Map.of(),
            homeDirectory.resolve("config"),
            () -> "varve-local");
    LogConfigurator.configure(environment);
    Logger logger = LogManager.getLogger(SingleNodeRunner.class);

    Node node = new ClasspathPluginNode(environment, List.of(netty4()));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    node.close();
                    node.awaitClose(20, TimeUnit.SECONDS);
                  } catch (Exception e) {
                    logger.warn("OpenSearch did not stop cleanly", e);
                  } finally {
                    Configurator.shutdown((LoggerContext) LogManager.getContext(false));
                    stopped.countDown();
                  }
                },
                "stop-opensearch"));
    try {
      node.start();
    } catch (Exception | Error e) {
      logger.error("OpenSearch failed to start", e);
      System.err.println("OpenSearch failed to start: " + e);
      System.exit(1);
    }
    // As a distribution does: the JVM lives until a signal, whatever threads the node keeps.
    stopped.await();
  }

  private static PluginInfo netty4() {
    return new PluginInfo(
        "transport-netty4",
        "Netty 4 HTTP and transport",
        Version.CURRENT.toString(),
        Version.CURRENT,
        "21",
        Netty4ModulePlugin.class.getName(),
        List.of(),
        false);
  }

  /** A node with plugins from the classpath; {@link Node}'s constructor for them is protected. */
  private static final class ClasspathPluginNode extends Node {
    ClasspathPluginNode(Environment environment, List<PluginInfo> plugins) {
      super(environment, plugins, true);
    }
  }
}
