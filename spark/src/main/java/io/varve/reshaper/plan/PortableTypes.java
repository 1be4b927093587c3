package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import com.datastax.oss.driver.internal.core.type.UserDefinedTypeBuilder;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * CQL types as they travel to Spark executors. The driver's types are Serializable but its vector
 * type is not (and neither is any collection, tuple or UDT holding one), so a plan's types are
 * written here as their tree: vectors, collections, tuples and UDTs node by node, every other type
 * by Java serialization.
 */
final class PortableTypes implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final int PLAIN = 0;
  private static final int VECTOR = 1;
  private static final int LIST = 2;
  private static final int SET = 3;
  private static final int MAP = 4;
  private static final int TUPLE = 5;
  private static final int UDT = 6;
  private transient List<DataType> types;

  PortableTypes(List<DataType> types) {
    this.types = types;
  }

  List<DataType> types() {
    return types;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.writeInt(types.size());
    for (DataType t : types) {
      write(out, t);
    }
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    int count = in.readInt();
    List<DataType> read = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      read.add(read(in));
    }
    types = List.copyOf(read);
  }

  private static void write(ObjectOutputStream out, DataType type) throws IOException {
    if (type instanceof VectorType v) {
      out.writeByte(VECTOR);
      write(out, v.getElementType());
      out.writeInt(v.getDimensions());
    } else if (type instanceof ListType l) {
      out.writeByte(LIST);
      out.writeBoolean(l.isFrozen());
      write(out, l.getElementType());
    } else if (type instanceof SetType s) {
      out.writeByte(SET);
      out.writeBoolean(s.isFrozen());
      write(out, s.getElementType());
    } else if (type instanceof MapType m) {
      out.writeByte(MAP);
      out.writeBoolean(m.isFrozen());
      write(out, m.getKeyType());
      write(out, m.getValueType());
    } else if (type instanceof TupleType t) {
      out.writeByte(TUPLE);
      out.writeInt(t.getComponentTypes().size());
      for (DataType c : t.getComponentTypes()) {
        write(out, c);
      }
    } else if (type instanceof UserDefinedType u) {
      out.writeByte(UDT);
      out.writeUTF(u.getKeyspace().asInternal());
      out.writeUTF(u.getName().asInternal());
      out.writeBoolean(u.isFrozen());
      out.writeInt(u.getFieldNames().size());
      for (int i = 0; i < u.getFieldNames().size(); i++) {
        out.writeUTF(u.getFieldNames().get(i).asInternal());
        write(out, u.getFieldTypes().get(i));
      }
    } else {
      out.writeByte(PLAIN);
      out.writeObject(type);
    }
  }

  private static DataType read(ObjectInputStream in) throws IOException, ClassNotFoundException {
    int kind = in.readByte();
    switch (kind) {
      case VECTOR:
        {
          DataType element = read(in);
          return DataTypes.vectorOf(element, in.readInt());
        }
      case LIST:
        {
          boolean frozen = in.readBoolean();
          return DataTypes.listOf(read(in), frozen);
        }
      case SET:
        {
          boolean frozen = in.readBoolean();
          return DataTypes.setOf(read(in), frozen);
        }
      case MAP:
        {
          boolean frozen = in.readBoolean();
          DataType key = read(in);
          return DataTypes.mapOf(key, read(in), frozen);
        }
      case TUPLE:
        {
          int count = in.readInt();
          DataType[] components = new DataType[count];
          for (int i = 0; i < count; i++) {
            components[i] = read(in);
          }
          return DataTypes.tupleOf(components);
        }
      case UDT:
        {
          UserDefinedTypeBuilder udt =
              new UserDefinedTypeBuilder(
                  CqlIdentifier.fromInternal(in.readUTF()),
                  CqlIdentifier.fromInternal(in.readUTF()));
          if (in.readBoolean()) {
            udt.frozen();
          }
          int count = in.readInt();
          for (int i = 0; i < count; i++) {
            CqlIdentifier name = CqlIdentifier.fromInternal(in.readUTF());
            udt.withField(name, read(in));
          }
          return udt.build();
        }
      default:
        return (DataType) in.readObject();
    }
  }
}
