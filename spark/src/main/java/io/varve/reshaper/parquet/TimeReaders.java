package io.varve.reshaper.parquet;

import io.varve.reshaper.parquet.ColumnReaders.ValueReader;
import io.varve.reshaper.parquet.PrimitiveReaders.LongGetter;
import java.time.Instant;
import java.time.LocalTime;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The readers of CQL timestamps (whole milliseconds since the epoch) and times (nanoseconds since
 * midnight) from the forms other tools write them in.
 */
final class TimeReaders {

  private TimeReaders() {}

  /** The reader of {@code field} into a timestamp column, or null when it does not fit. */
  static ValueReader timestamp(PrimitiveType field) {
    if (field.getPrimitiveTypeName() == PrimitiveTypeName.INT96
        && field.getLogicalTypeAnnotation() == null) {
      return (g, f, i, p) -> {
        long[] dayAndNanos = Literals.int96(g.getInt96(f, i).toByteBuffer());
        if (dayAndNanos == null) {
          throw PrimitiveReaders.refused(p, "an INT96 timestamp that is not 12 bytes long");
        }
        long millis =
            Math.addExact(
                Math.multiplyExact(dayAndNanos[0], Literals.MILLIS_PER_DAY),
                wholeMillis(dayAndNanos[1], 1_000_000, "INT96", p));
        return Instant.ofEpochMilli(millis);
      };
    }
    if (field.getPrimitiveTypeName() != PrimitiveTypeName.INT64
        || !(field.getLogicalTypeAnnotation() instanceof TimestampLogicalTypeAnnotation)) {
      return null;
    }
    TimeUnit unit = ((TimestampLogicalTypeAnnotation) field.getLogicalTypeAnnotation()).getUnit();
    long perMilli = unit == TimeUnit.MILLIS ? 1 : unit == TimeUnit.MICROS ? 1_000 : 1_000_000;
    String described = Misfit.describe(field);
    return (g, f, i, p) ->
        Instant.ofEpochMilli(wholeMillis(g.getLong(f, i), perMilli, described, p));
  }

  private static long wholeMillis(long value, long perMilli, String described, String path) {
    if (value % perMilli != 0) {
      throw PrimitiveReaders.refused(
          path,
          described
              + " "
              + value
              + " is not a whole millisecond, which a CQL timestamp cannot hold");
    }
    return value / perMilli;
  }

  /** The reader of {@code field} into a time column, or null when it does not fit. */
  static ValueReader time(PrimitiveType field) {
    LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
    PrimitiveTypeName physical = field.getPrimitiveTypeName();
    long perUnit;
    if (annotation == null && physical == PrimitiveTypeName.INT64) {
      perUnit = 1;
    } else if (annotation instanceof TimeLogicalTypeAnnotation) {
      TimeUnit unit = ((TimeLogicalTypeAnnotation) annotation).getUnit();
      if ((unit == TimeUnit.MILLIS) != (physical == PrimitiveTypeName.INT32)) {
        return null;
      }
      perUnit = unit == TimeUnit.MILLIS ? 1_000_000 : unit == TimeUnit.MICROS ? 1_000 : 1;
    } else {
      return null;
    }
    LongGetter getter = physical == PrimitiveTypeName.INT32 ? Group::getInteger : Group::getLong;
    String described = Misfit.describe(field);
    return (g, f, i, p) -> {
      long value = getter.get(g, f, i);
      if (value < 0 || value >= Literals.NANOS_PER_DAY / perUnit) {
        throw PrimitiveReaders.refused(p, described + " " + value + " is not a time of day");
      }
      return LocalTime.ofNanoOfDay(value * perUnit);
    };
  }
}
