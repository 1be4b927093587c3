package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.VectorType;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;

/** Why a Parquet field cannot fill a CQL type, said as {@link ParquetColumns#fits} says it. */
final class Misfit extends Exception {

  private static final long serialVersionUID = 1L;

  /** Plans a reader, or says why it cannot. */
  interface Planner<T> {
    T plan() throws Misfit;
  }

  Misfit(String reason) {
    super(reason, null, false, false);
  }

  /** {@code field} does not fit {@code type}. */
  static Misfit of(Type field, DataType type) {
    return new Misfit(describe(field) + " does not fit " + column(type));
  }

  /**
   * {@code planner}'s plan; a misfit of the part {@code part} of {@code field} said as a misfit of
   * the whole.
   */
  static <T> T nested(Type field, DataType type, String part, Planner<T> planner) throws Misfit {
    try {
      return planner.plan();
    } catch (Misfit misfit) {
      throw new Misfit(
          describe(field)
              + " does not fit "
              + column(type)
              + ": "
              + part
              + ": "
              + misfit.getMessage());
    }
  }

  /** A Parquet field as the reasons name it: {@code INT64 TIMESTAMP(MICROS,true)}. */
  static String describe(Type field) {
    StringBuilder text = new StringBuilder();
    if (field.isRepetition(Repetition.REPEATED)) {
      text.append("repeated ");
    }
    if (field.isPrimitive()) {
      text.append(field.asPrimitiveType().getPrimitiveTypeName());
      if (field.asPrimitiveType().getPrimitiveTypeName()
          == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
        text.append('(').append(field.asPrimitiveType().getTypeLength()).append(')');
      }
    } else {
      text.append("group");
    }
    if (field.getLogicalTypeAnnotation() != null) {
      text.append(' ').append(field.getLogicalTypeAnnotation());
    }
    return text.toString();
  }

  /** {@code type} as the reasons name a column of it: {@code a text column}. */
  static String column(DataType type) {
    String cql = cql(type);
    return ("aeio".indexOf(cql.charAt(0)) >= 0 ? "an " : "a ") + cql + " column";
  }

  /** {@code type} in CQL, without {@code frozen} (the driver writes a vector as its class). */
  private static String cql(DataType type) {
    if (type instanceof VectorType vector) {
      return "vector<" + cql(vector.getElementType()) + ", " + vector.getDimensions() + ">";
    }
    if (type instanceof ListType list) {
      return "list<" + cql(list.getElementType()) + ">";
    }
    if (type instanceof SetType set) {
      return "set<" + cql(set.getElementType()) + ">";
    }
    if (type instanceof MapType map) {
      return "map<" + cql(map.getKeyType()) + ", " + cql(map.getValueType()) + ">";
    }
    if (type instanceof TupleType tuple) {
      List<String> components = new ArrayList<>();
      tuple.getComponentTypes().forEach(component -> components.add(cql(component)));
      return "tuple<" + String.join(", ", components) + ">";
    }
    return type.asCql(false, true);
  }
}
