package io.varve.core.kv;

import io.varve.core.slo.LatencySlo;
import io.varve.core.slo.SloCatalog;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The KeyValue endpoints that carry objectives, and their defaults
 * (docs/namespace-configuration.md). Reads default to a target of 500 ms and a max of 2 s: the
 * reference text's read objectives with room for a 2 MiB page on a loaded cluster. Writes default
 * to 100 ms and 2 s. A namespace sets tighter ones for its access pattern.
 */
public final class KvSlos {

  public static final String GET_ITEMS = "GetItems";
  public static final String SCAN_ITEMS = "ScanItems";
  public static final String PUT_ITEMS = "PutItems";
  public static final String DELETE_ITEMS = "DeleteItems";
  public static final String MUTATE_ITEMS = "MutateItems";

  public static final String READ = "read";
  public static final String WRITE = "write";

  public static final LatencySlo DEFAULT_READ =
      new LatencySlo(Duration.ofMillis(500), Duration.ofSeconds(2));
  public static final LatencySlo DEFAULT_WRITE =
      new LatencySlo(Duration.ofMillis(100), Duration.ofSeconds(2));

  public static final SloCatalog CATALOG = catalog();

  private KvSlos() {}

  private static SloCatalog catalog() {
    Map<String, String> endpoints = new LinkedHashMap<>();
    endpoints.put(GET_ITEMS, READ);
    endpoints.put(SCAN_ITEMS, READ);
    endpoints.put(PUT_ITEMS, WRITE);
    endpoints.put(DELETE_ITEMS, WRITE);
    endpoints.put(MUTATE_ITEMS, WRITE);
    return new SloCatalog(endpoints, Map.of(READ, DEFAULT_READ, WRITE, DEFAULT_WRITE));
  }
}
