package io.varve.bench.load;

import io.varve.options.Option;
import io.varve.options.Options;
import io.varve.options.Types;

/**
 * The properties that choose what of the servers' side a run samples beside its operations
 * (docs/bench.md#load), whatever its binding.
 */
public final class ServerLoadOptions {

  private static final Options.Builder OPTIONS = Options.builder();

  public static final Option<Boolean> CQL =
      OPTIONS
          .option("serverload.cql", Types.bool())
          .defaultDoc("`true` for the `cql` binding")
          .doc(
              "Sample the Cassandra nodes every second through the `cql` binding's connection properties"
                  + " (`hosts`, `port`, `cassandra.*`): pending and blocked tasks of their thread pools"
                  + " (`system_views.thread_pools`), and over JMX their process CPU and dropped messages.");
  public static final Option<Integer> JMX_PORT =
      OPTIONS
          .option("serverload.jmxPort", Types.integer(0, 65535))
          .defaultValue(7199)
          .doc(
              "The nodes' JMX port (no authentication; Cassandra's default binds it to the node's own"
                  + " machine). `0`: no JMX, so no node CPU or dropped messages.");
  public static final Option<Boolean> VARVE =
      OPTIONS
          .option("serverload.varve", Types.bool())
          .defaultDoc("`true` for the `varve` and `varve-kv` bindings")
          .doc(
              "Scrape the Varve server's `/metrics` (at `varve.url`, with `varve.token`) every second:"
                  + " its process CPU, requests served and refused.");

  public static final Option<Boolean> COLD =
      OPTIONS
          .option("serverload.cold", Types.bool())
          .defaultValue(false)
          .doc(
              "What `--cold` sets: before the run, each Cassandra node (reached as `serverload.cql`"
                  + " reaches them, over JMX) flushes its tables and empties its key, row and counter"
                  + " caches, and the OS page cache is dropped where the nodes run on this machine and"
                  + " the loader may (root). Refused when no node is reached.");

  public static final Options ALL = OPTIONS.build();

  private ServerLoadOptions() {}
}
