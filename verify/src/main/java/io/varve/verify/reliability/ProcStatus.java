package io.varve.verify.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Resident memory of a process from {@code /proc/<pid>/status}: {@code VmRSS} (now) and {@code
 * VmHWM} (the peak since the process started), both in kB there.
 */
public final class ProcStatus {

  private ProcStatus() {}

  /**
   * The value in bytes of a {@code kB} field such as {@code VmRSS: 123456 kB}, if the text has it.
   */
  public static OptionalLong fieldBytes(String statusText, String field) {
    for (String line : statusText.split("\n")) {
      if (line.startsWith(field + ":")) {
        String[] parts = line.substring(field.length() + 1).trim().split("\\s+");
        if (parts.length == 2 && parts[1].equals("kB")) {
          try {
            return OptionalLong.of(Long.parseLong(parts[0]) * 1024);
          } catch (NumberFormatException e) {
            return OptionalLong.empty();
          }
        }
      }
    }
    return OptionalLong.empty();
  }

  /** The field of a live process; empty once it has exited (or off Linux). */
  public static OptionalLong read(long pid, String field) {
    try {
      return fieldBytes(Files.readString(Path.of("/proc", Long.toString(pid), "status")), field);
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }
}
