package io.varve.bench.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The operating system's page cache of this machine, dropped for a cold run: {@code sync}, then
 * {@code 1} written to {@code /proc/sys/vm/drop_caches}, which Linux allows root only.
 */
public final class PageCache {

  private static final Path DROP = Path.of("/proc/sys/vm/drop_caches");

  private PageCache() {}

  /** Drops the page cache; empty when done, else why not. */
  public static String drop() {
    if (!Files.exists(DROP)) {
      return "this system has no " + DROP;
    }
    try {
      Process sync = new ProcessBuilder("sync").inheritIO().start();
      sync.waitFor();
      Files.writeString(DROP, "1");
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    } catch (IOException e) {
      return "writing " + DROP + " needs root (" + e.getClass().getSimpleName() + ")";
    }
  }
}
