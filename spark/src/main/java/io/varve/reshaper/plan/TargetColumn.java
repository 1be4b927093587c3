package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.type.DataType;
import java.io.Serializable;
import java.util.List;

/**
 * One column of the target table and where its value comes from.
 *
 * @param name the CQL name, quoted when needed
 * @param type its type
 * @param sourceIndex the position of the source column in the scan's select list, or -1
 * @param constant the encoded constant, or null
 * @param writetimeIndex the position of {@code WRITETIME(source column)} in the select list, or -1
 *     when its timestamp is not read
 * @param ttlIndex the position of {@code TTL(source column)}, or -1
 */
public record TargetColumn(
    String name, DataType type, int sourceIndex, byte[] constant, int writetimeIndex, int ttlIndex)
    implements Serializable {

  private Object writeReplace() {
    return new Portable(
        name, new PortableTypes(List.of(type)), sourceIndex, constant, writetimeIndex, ttlIndex);
  }

  /** How a column travels: its type as {@link PortableTypes}. */
  private record Portable(
      String name,
      PortableTypes type,
      int sourceIndex,
      byte[] constant,
      int writetimeIndex,
      int ttlIndex)
      implements Serializable {
    private Object readResolve() {
      return new TargetColumn(
          name, type.types().get(0), sourceIndex, constant, writetimeIndex, ttlIndex);
    }
  }
}
