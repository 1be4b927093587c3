package io.varve.core.event;

import java.util.Arrays;

/** One key/value pair of an event; both are opaque bytes. */
public record EventItem(byte[] key, byte[] value) {

  @Override
  public boolean equals(Object o) {
    return o instanceof EventItem other
        && Arrays.equals(key, other.key)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "EventItem[key=" + key.length + "B, value=" + value.length + "B]";
  }
}
