package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.parquet.ColumnReaders.FieldReader;
import io.varve.reshaper.parquet.ColumnReaders.ValueReader;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * The readers of tuples (a group of as many fields, taken in order) and of user-defined types (a
 * group whose fields are named as fields of the type) from groups that are neither lists nor maps.
 */
final class StructReaders {

  private StructReaders() {}

  /** The reader of {@code field} into {@code type}. */
  static ValueReader tuple(Type field, TupleType type) throws Misfit {
    List<DataType> components = type.getComponentTypes();
    if (!isStruct(field) || field.asGroupType().getFieldCount() != components.size()) {
      throw Misfit.of(field, type);
    }
    GroupType group = field.asGroupType();
    FieldReader[] readers = new FieldReader[components.size()];
    List<TypeCodec<Object>> codecs = new ArrayList<>();
    for (int i = 0; i < readers.length; i++) {
      Type component = group.getType(i);
      DataType componentType = components.get(i);
      readers[i] =
          Misfit.nested(
              field,
              type,
              component.getName(),
              () -> ColumnReaders.fieldReader(component, componentType));
      codecs.add(CodecRegistry.DEFAULT.codecFor(componentType));
    }
    return (parent, f, index, path) -> {
      Group tuple = parent.getGroup(f, index);
      TupleValue value = type.newValue();
      for (int i = 0; i < readers.length; i++) {
        Object component = readers[i].read(tuple, i, path + "." + group.getFieldName(i));
        if (component != null) {
          value = value.set(i, component, codecs.get(i));
        }
      }
      return value;
    };
  }

  /** The reader of {@code field} into {@code type}. */
  static ValueReader udt(Type field, UserDefinedType type) throws Misfit {
    if (!isStruct(field)) {
      throw Misfit.of(field, type);
    }
    GroupType group = field.asGroupType();
    List<CqlIdentifier> names = type.getFieldNames();
    FieldReader[] readers = new FieldReader[group.getFieldCount()];
    int[] targets = new int[readers.length];
    List<TypeCodec<Object>> codecs = new ArrayList<>();
    for (int i = 0; i < readers.length; i++) {
      Type member = group.getType(i);
      int target = 0;
      while (target < names.size() && !names.get(target).asInternal().equals(member.getName())) {
        target++;
      }
      if (target == names.size()) {
        throw new Misfit(
            Misfit.describe(field)
                + " does not fit "
                + Misfit.column(type)
                + ": it has no field "
                + member.getName());
      }
      DataType memberType = type.getFieldTypes().get(target);
      readers[i] =
          Misfit.nested(
              field, type, member.getName(), () -> ColumnReaders.fieldReader(member, memberType));
      targets[i] = target;
      codecs.add(CodecRegistry.DEFAULT.codecFor(memberType));
    }
    return (parent, f, index, path) -> {
      Group udt = parent.getGroup(f, index);
      UdtValue value = type.newValue();
      for (int i = 0; i < readers.length; i++) {
        Object member = readers[i].read(udt, i, path + "." + group.getFieldName(i));
        if (member != null) {
          value = value.set(targets[i], member, codecs.get(i));
        }
      }
      return value;
    };
  }

  private static boolean isStruct(Type field) {
    return !field.isPrimitive() && field.getLogicalTypeAnnotation() == null;
  }
}
