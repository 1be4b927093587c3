package io.varve.local;

import java.util.Objects;

/**
 * The checks every server's settings make, with messages that name the setting, the value and what
 * was expected: {@code port: 0 (expected: 1..65535)}.
 */
public final class SettingChecks {

  private SettingChecks() {}

  /** Fails unless {@code port} is a TCP port, 1..65535. */
  public static void port(String name, int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(name + ": " + port + " (expected: 1..65535)");
    }
  }

  /**
   * Fails unless {@code heapSize} is a JVM heap size in megabytes or gigabytes, like {@code 512m}.
   *
   * @param examples how the message shows the form, like {@code 512m or 1g}
   */
  public static void heapSize(String heapSize, String examples) {
    Objects.requireNonNull(heapSize, "heapSize");
    if (!heapSize.matches("[1-9][0-9]*[mMgG]")) {
      throw new IllegalArgumentException(
          "heapSize: " + heapSize + " (expected: megabytes or gigabytes, like " + examples + ")");
    }
  }
}
