package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.data.GettableByIndex;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows, each an array of CQL values in column order (the Java objects the driver's {@code
 * CodecRegistry.DEFAULT} decodes), to a Parquet file of the schema {@link ParquetColumns#schema}
 * gives for the columns: a null value is an absent field. A value of another Java class than its
 * column's type decodes to fails the write, and leaves the file unusable.
 */
public final class RowWriteSupport extends WriteSupport<Object[]> {

  /** Writes one value, not null, of a field already started. */
  private interface ValueWriter {
    void write(RecordConsumer consumer, Object value);
  }

  private final MessageType schema;
  private final ValueWriter[] writers;
  private RecordConsumer consumer;

  /**
   * Writes rows of columns of {@code types} to files of {@code schema}.
   *
   * @throws IllegalArgumentException when {@code schema} is not what {@link ParquetColumns#schema}
   *     gives for its field names and {@code types}
   */
  public RowWriteSupport(MessageType schema, List<DataType> types) {
    List<String> names = new ArrayList<>();
    schema.getFields().forEach(field -> names.add(field.getName()));
    if (names.size() != types.size() || !schema.equals(ParquetColumns.schema(names, types))) {
      throw new IllegalArgumentException(
          "the schema " + schema + " is not the one of the column types " + types);
    }
    this.schema = schema;
    this.writers = new ValueWriter[types.size()];
    for (int i = 0; i < writers.length; i++) {
      writers[i] = writer(types.get(i));
    }
  }

  /**
   * A writer of rows of the columns {@code names} of {@code types} to {@code file}, compressed with
   * Snappy, replacing the file if it exists.
   */
  public static ParquetWriter<Object[]> open(
      OutputFile file, List<String> names, List<DataType> types) throws IOException {
    RowWriteSupport support = new RowWriteSupport(ParquetColumns.schema(names, types), types);
    Builder builder = new Builder(file, support);
    if (file instanceof HadoopOutputFile hadoop) {
      // the caller's configuration: a builder's own reads Hadoop's XML resources, per file
      builder.withConf(hadoop.getConfiguration());
    }
    return builder
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
        .build();
  }

  @Override
  public String getName() {
    return "varve";
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(schema, new HashMap<>());
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(Object[] row) {
    if (row.length != writers.length) {
      throw new IllegalArgumentException(
          "a row of " + row.length + " values for " + writers.length + " columns");
    }
    consumer.startMessage();
    for (int i = 0; i < row.length; i++) {
      if (row[i] != null) {
        String name = schema.getFieldName(i);
        consumer.startField(name, i);
        writers[i].write(consumer, row[i]);
        consumer.endField(name, i);
      }
    }
    consumer.endMessage();
  }

  private static ValueWriter writer(DataType type) {
    DataType elementType = ColumnReaders.elementType(type);
    if (elementType != null) {
      ValueWriter element = writer(elementType);
      return (c, v) ->
          writeList(c, v instanceof CqlVector ? (CqlVector<?>) v : (Collection<?>) v, element);
    }
    if (type instanceof MapType) {
      ValueWriter key = writer(((MapType) type).getKeyType());
      ValueWriter value = writer(((MapType) type).getValueType());
      return (c, v) -> writeMap(c, (Map<?, ?>) v, key, value);
    }
    if (type instanceof TupleType) {
      return struct(((TupleType) type).getComponentTypes(), i -> "_" + (i + 1), TupleValue.class);
    }
    if (type instanceof UserDefinedType) {
      UserDefinedType udt = (UserDefinedType) type;
      return struct(
          udt.getFieldTypes(), i -> udt.getFieldNames().get(i).asInternal(), UdtValue.class);
    }
    CqlPrimitive primitive = CqlPrimitive.of(type);
    if (primitive == null) {
      throw new IllegalArgumentException(type.asCql(true, true) + " has no Parquet form");
    }
    switch (primitive) {
      case BOOLEAN:
        return (c, v) -> c.addBoolean((Boolean) v);
      case TINYINT:
        return (c, v) -> c.addInteger((Byte) v);
      case SMALLINT:
        return (c, v) -> c.addInteger((Short) v);
      case INT:
        return (c, v) -> c.addInteger((Integer) v);
      case BIGINT:
      case COUNTER:
        return (c, v) -> c.addLong((Long) v);
      case FLOAT:
        return (c, v) -> c.addFloat((Float) v);
      case DOUBLE:
        return (c, v) -> c.addDouble((Double) v);
      case BLOB:
        return (c, v) -> c.addBinary(Binary.fromConstantByteBuffer(((ByteBuffer) v).duplicate()));
      case TIMESTAMP:
        return (c, v) -> c.addLong(((Instant) v).toEpochMilli());
      case DATE:
        return (c, v) -> c.addInteger(Math.toIntExact(((LocalDate) v).toEpochDay()));
      case TIME:
        return (c, v) -> c.addLong(((LocalTime) v).toNanoOfDay());
      case VARINT:
        return text(BigInteger.class, BigInteger::toString);
      case DECIMAL:
        return text(BigDecimal.class, BigDecimal::toString);
      case ASCII:
      case TEXT:
        return text(String.class, s -> s);
      case UUID:
      case TIMEUUID:
        return text(UUID.class, UUID::toString);
      case INET:
        return text(InetAddress.class, InetAddress::getHostAddress);
      case DURATION:
        // A zero duration's text is empty, which CqlDuration.from refuses: 0s instead.
        return text(CqlDuration.class, d -> d.toString().isEmpty() ? "0s" : d.toString());
      default:
        throw new IllegalArgumentException(type.asCql(true, true) + " has no Parquet form");
    }
  }

  private static <T> ValueWriter text(Class<T> javaType, Function<T, String> text) {
    return (c, v) -> c.addBinary(Binary.fromString(text.apply(javaType.cast(v))));
  }

  private static void writeList(RecordConsumer c, Iterable<?> values, ValueWriter element) {
    c.startGroup();
    boolean started = false;
    for (Object value : values) {
      if (!started) {
        c.startField("list", 0);
        started = true;
      }
      c.startGroup();
      if (value != null) {
        c.startField("element", 0);
        element.write(c, value);
        c.endField("element", 0);
      }
      c.endGroup();
    }
    if (started) {
      c.endField("list", 0);
    }
    c.endGroup();
  }

  private static void writeMap(
      RecordConsumer c, Map<?, ?> map, ValueWriter keyWriter, ValueWriter valueWriter) {
    c.startGroup();
    if (!map.isEmpty()) {
      c.startField("key_value", 0);
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (entry.getKey() == null) {
          throw new IllegalArgumentException("a map with a null key");
        }
        c.startGroup();
        c.startField("key", 0);
        keyWriter.write(c, entry.getKey());
        c.endField("key", 0);
        if (entry.getValue() != null) {
          c.startField("value", 1);
          valueWriter.write(c, entry.getValue());
          c.endField("value", 1);
        }
        c.endGroup();
      }
      c.endField("key_value", 0);
    }
    c.endGroup();
  }

  private static ValueWriter struct(
      List<DataType> types, IntFunction<String> names, Class<? extends GettableByIndex> javaType) {
    ValueWriter[] writers = new ValueWriter[types.size()];
    List<TypeCodec<Object>> codecs = new ArrayList<>();
    String[] fieldNames = new String[types.size()];
    for (int i = 0; i < writers.length; i++) {
      writers[i] = writer(types.get(i));
      codecs.add(CodecRegistry.DEFAULT.codecFor(types.get(i)));
      fieldNames[i] = names.apply(i);
    }
    return (c, v) -> {
      GettableByIndex value = javaType.cast(v);
      c.startGroup();
      for (int i = 0; i < writers.length; i++) {
        // isNull first: the driver's codecs decode a null collection as an empty one.
        Object member = value.isNull(i) ? null : value.get(i, codecs.get(i));
        if (member != null) {
          c.startField(fieldNames[i], i);
          writers[i].write(c, member);
          c.endField(fieldNames[i], i);
        }
      }
      c.endGroup();
    };
  }

  /** The builder of {@link #open}'s writers. */
  private static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
    private final RowWriteSupport support;

    Builder(OutputFile file, RowWriteSupport support) {
      super(file);
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Object[]> getWriteSupport(Configuration configuration) {
      return support;
    }
  }
}
