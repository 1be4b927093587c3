package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.Type;

/** Parquet files on the local disk, written and read as the tests need them. */
final class TempParquetFiles {

  private static final Configuration CONF = new Configuration();

  private TempParquetFiles() {}

  static Path path(java.nio.file.Path file) {
    return new Path(file.toUri());
  }

  /**
   * Writes {@code rows} of the columns {@code names} of {@code types} with {@link RowWriteSupport}.
   */
  static void writeRows(
      java.nio.file.Path file, List<String> names, List<DataType> types, List<Object[]> rows)
      throws IOException {
    try (ParquetWriter<Object[]> writer =
        RowWriteSupport.open(HadoopOutputFile.fromPath(path(file), CONF), names, types)) {
      for (Object[] row : rows) {
        writer.write(row);
      }
    }
  }

  /** Writes {@code records} as another tool would, with parquet-hadoop's example writer. */
  static void writeGroups(java.nio.file.Path file, MessageType schema, List<Group> records)
      throws IOException {
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(HadoopOutputFile.fromPath(path(file), CONF))
            .withType(schema)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            .build()) {
      for (Group record : records) {
        writer.write(record);
      }
    }
  }

  /**
   * The records read back from a file of the one field {@code field} (as {@link #field} takes it),
   * written by another tool, each filled in by one of {@code fillers}.
   */
  @SafeVarargs
  static List<Group> foreign(java.nio.file.Path dir, String field, Consumer<Group>... fillers)
      throws IOException {
    MessageType schema = MessageTypeParser.parseMessageType("message m { " + field + " }");
    SimpleGroupFactory factory = new SimpleGroupFactory(schema);
    List<Group> records = new ArrayList<>();
    for (Consumer<Group> filler : fillers) {
      Group record = factory.newGroup();
      filler.accept(record);
      records.add(record);
    }
    java.nio.file.Path file = java.nio.file.Files.createTempFile(dir, "foreign", ".parquet");
    writeGroups(file, schema, records);
    return readGroups(file);
  }

  /** The records of {@code file}, in order. */
  static List<Group> readGroups(java.nio.file.Path file) throws IOException {
    List<Group> records = new ArrayList<>();
    try (ParquetReader<Group> reader =
        ParquetReader.builder(new GroupReadSupport(), path(file)).withConf(CONF).build()) {
      for (Group record = reader.read(); record != null; record = reader.read()) {
        records.add(record);
      }
    }
    return records;
  }

  /** The schema in the footer of {@code file}. */
  static MessageType footerSchema(java.nio.file.Path file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(path(file), CONF))) {
      return reader.getFooter().getFileMetaData().getSchema();
    }
  }

  /** The one field {@code text} (such as {@code optional int64 f;}) declares. */
  static Type field(String text) {
    return MessageTypeParser.parseMessageType("message m { " + text + " }").getType(0);
  }

  /** {@code value} as the driver sends it to Cassandra. */
  static ByteBuffer encoded(DataType type, Object value) {
    TypeCodec<Object> codec = CodecRegistry.DEFAULT.codecFor(type);
    return codec.encode(value, ProtocolVersion.DEFAULT);
  }
}
