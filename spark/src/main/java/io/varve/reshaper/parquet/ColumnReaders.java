package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;

/**
 * The readers of {@link ParquetColumns#read}, one built per pair of a Parquet field and a CQL type
 * (and kept): lists, sets, vectors and maps here, tuples and user-defined types in {@link
 * StructReaders}, single values in {@link PrimitiveReaders} and {@link TimeReaders}. A pair that
 * does not fit has a reason instead ({@link Misfit}).
 */
final class ColumnReaders {

  /** Reads a whole field of {@code parent}: null when the record does not hold it. */
  interface FieldReader {
    Object read(Group parent, int field, String path);
  }

  /** Reads occurrence {@code index} of a field of {@code parent}, whatever its repetition. */
  interface ValueReader {
    Object read(Group parent, int field, int index, String path);
  }

  private record Key(Type field, DataType type) {}

  private static final int MAX_KEPT = 4096;
  private static final Map<Key, Object> KEPT = new ConcurrentHashMap<>();

  private ColumnReaders() {}

  /** Null when {@code field} fits {@code type}, else why not. */
  static String misfit(Type field, DataType type) {
    Object plan = plan(field, type);
    return plan instanceof String ? (String) plan : null;
  }

  /** The reader of {@code field} into {@code type}; throws when it does not fit. */
  static FieldReader reader(Type field, DataType type) {
    Object plan = plan(field, type);
    if (plan instanceof String) {
      throw new IllegalArgumentException("field " + field.getName() + ": " + plan);
    }
    return (FieldReader) plan;
  }

  private static Object plan(Type field, DataType type) {
    Key key = new Key(field, type);
    Object plan = KEPT.get(key);
    if (plan == null) {
      try {
        plan = fieldReader(field, type);
      } catch (Misfit misfit) {
        plan = misfit.getMessage();
      }
      if (KEPT.size() >= MAX_KEPT) {
        KEPT.clear();
      }
      KEPT.put(key, plan);
    }
    return plan;
  }

  static FieldReader fieldReader(Type field, DataType type) throws Misfit {
    if (field.isRepetition(Repetition.REPEATED)) {
      // A repeated field outside a LIST group: a list of its occurrences.
      DataType elementType = elementType(type);
      if (elementType == null) {
        throw Misfit.of(field, type);
      }
      ValueReader element =
          Misfit.nested(field, type, "element", () -> valueReader(field, elementType));
      return (parent, f, path) -> {
        List<Object> values = new ArrayList<>();
        for (int i = 0, n = parent.getFieldRepetitionCount(f); i < n; i++) {
          values.add(element.read(parent, f, i, path + "[" + i + "]"));
        }
        return collection(type, values, path);
      };
    }
    ValueReader value = valueReader(field, type);
    return (parent, f, path) ->
        parent.getFieldRepetitionCount(f) == 0 ? null : value.read(parent, f, 0, path);
  }

  private static ValueReader valueReader(Type field, DataType type) throws Misfit {
    DataType elementType = elementType(type);
    if (elementType != null) {
      return listReader(field, type, elementType);
    }
    if (type instanceof MapType) {
      return mapReader(field, (MapType) type);
    }
    if (type instanceof TupleType) {
      return StructReaders.tuple(field, (TupleType) type);
    }
    if (type instanceof UserDefinedType) {
      return StructReaders.udt(field, (UserDefinedType) type);
    }
    ValueReader reader =
        field.isPrimitive() ? PrimitiveReaders.of(field.asPrimitiveType(), type) : null;
    if (reader == null) {
      throw Misfit.of(field, type);
    }
    return reader;
  }

  private static ValueReader listReader(Type field, DataType type, DataType elementType)
      throws Misfit {
    if (field.isPrimitive()
        || !(field.getLogicalTypeAnnotation()
            instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation)
        || field.asGroupType().getFieldCount() != 1
        || !field.asGroupType().getType(0).isRepetition(Repetition.REPEATED)) {
      throw Misfit.of(field, type);
    }
    Type repeated = field.asGroupType().getType(0);
    // The Parquet specification's rules for lists written before the three-level form.
    boolean elementIsRepeated =
        repeated.isPrimitive()
            || repeated.asGroupType().getFieldCount() != 1
            || repeated.getName().equals("array")
            || repeated.getName().equals(field.getName() + "_tuple");
    if (elementIsRepeated) {
      ValueReader element =
          Misfit.nested(field, type, "element", () -> valueReader(repeated, elementType));
      return (parent, f, index, path) -> {
        Group list = parent.getGroup(f, index);
        List<Object> values = new ArrayList<>();
        for (int i = 0, n = list.getFieldRepetitionCount(0); i < n; i++) {
          values.add(element.read(list, 0, i, path + "[" + i + "]"));
        }
        return collection(type, values, path);
      };
    }
    Type elementField = repeated.asGroupType().getType(0);
    ValueReader element =
        Misfit.nested(field, type, "element", () -> valueReader(elementField, elementType));
    return (parent, f, index, path) -> {
      Group list = parent.getGroup(f, index);
      List<Object> values = new ArrayList<>();
      for (int i = 0, n = list.getFieldRepetitionCount(0); i < n; i++) {
        Group holder = list.getGroup(0, i);
        String at = path + "[" + i + "]";
        if (holder.getFieldRepetitionCount(0) == 0) {
          throw PrimitiveReaders.refused(at, "a null element, which a CQL collection cannot hold");
        }
        values.add(element.read(holder, 0, 0, at));
      }
      return collection(type, values, path);
    };
  }

  private static ValueReader mapReader(Type field, MapType type) throws Misfit {
    LogicalTypeAnnotation annotation = field.getLogicalTypeAnnotation();
    if (field.isPrimitive()
        || !(annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)
        || field.asGroupType().getFieldCount() != 1
        || field.asGroupType().getType(0).isPrimitive()
        || !field.asGroupType().getType(0).isRepetition(Repetition.REPEATED)
        || field.asGroupType().getType(0).asGroupType().getFieldCount() != 2) {
      throw Misfit.of(field, type);
    }
    GroupType entry = field.asGroupType().getType(0).asGroupType();
    int k =
        entry.containsField("key") && entry.containsField("value") ? entry.getFieldIndex("key") : 0;
    int v = 1 - k;
    ValueReader key =
        Misfit.nested(field, type, "key", () -> valueReader(entry.getType(k), type.getKeyType()));
    ValueReader value =
        Misfit.nested(
            field, type, "value", () -> valueReader(entry.getType(v), type.getValueType()));
    return (parent, f, index, path) -> {
      Group map = parent.getGroup(f, index);
      Map<Object, Object> values = new LinkedHashMap<>();
      for (int i = 0, n = map.getFieldRepetitionCount(0); i < n; i++) {
        Group pair = map.getGroup(0, i);
        String at = path + "{" + i + "}";
        if (pair.getFieldRepetitionCount(k) == 0) {
          throw PrimitiveReaders.refused(at, "a null key, which a CQL map cannot hold");
        }
        if (pair.getFieldRepetitionCount(v) == 0) {
          throw PrimitiveReaders.refused(at, "a null value, which a CQL map cannot hold");
        }
        values.put(key.read(pair, k, 0, at + ".key"), value.read(pair, v, 0, at + ".value"));
      }
      return values;
    };
  }

  /** The element type of a list, set or vector type, else null. */
  static DataType elementType(DataType type) {
    if (type instanceof ListType) {
      return ((ListType) type).getElementType();
    }
    if (type instanceof SetType) {
      return ((SetType) type).getElementType();
    }
    if (type instanceof VectorType) {
      return ((VectorType) type).getElementType();
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static Object collection(DataType type, List<Object> values, String path) {
    if (type instanceof SetType) {
      return new LinkedHashSet<>(values);
    }
    if (type instanceof VectorType) {
      int dimensions = ((VectorType) type).getDimensions();
      if (values.size() != dimensions) {
        throw PrimitiveReaders.refused(
            path,
            "a list of "
                + values.size()
                + " elements does not fit "
                + Misfit.column(type)
                + " ("
                + dimensions
                + " elements)");
      }
      return CqlVector.newInstance((List<Number>) (List<?>) values);
    }
    return values;
  }
}
