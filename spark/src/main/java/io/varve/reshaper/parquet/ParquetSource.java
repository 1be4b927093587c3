package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.ConvertedRow;
import io.varve.reshaper.copy.SourceReader;
import io.varve.reshaper.copy.SourceRow;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TableSchema;
import io.varve.reshaper.plan.TableSchema.Column;
import io.varve.reshaper.plan.WorkUnit;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * A Parquet source: on the driver, its files ({@link ParquetFiles#list}) and the schema the planner
 * sees ({@link #schema}: each top-level field a column, of the type of the target column it fills,
 * every file's field checked to fit it); in a task, the reader of one file, each record converted
 * by {@link ParquetColumns} to the CQL values of the plan's select list. A value that does not fit
 * makes its record a bad row. Rows have no key: the planner copies them as upserts, or shuffles
 * them when {@code reshape.onConflict} is given.
 */
public final class ParquetSource implements SourceReader {
  private static final long serialVersionUID = 1L;
  private static final String KEY = "source.path";
  private final MigrationPlan plan;
  private final JobConfig config;

  public ParquetSource(MigrationPlan plan, JobConfig config) {
    this.plan = plan;
    this.config = config;
  }

  /**
   * The source as the planner sees it: a column per top-level field of the files (the union of
   * their fields), typed as the target column it reaches (after {@code renames}), no key. A field
   * whose values cannot fill that column, in any file, is refused naming the file and the field; a
   * file without a field that fills a target primary-key column is refused too.
   */
  public static TableSchema schema(
      JobConfig config, List<ParquetFile> files, Configuration conf, TableSchema target) {
    Map<CqlIdentifier, CqlIdentifier> renames = config.renamed();
    Set<CqlIdentifier> dropped = config.dropped();
    Set<CqlIdentifier> targetKey = new HashSet<>();
    target.primaryKey().forEach(c -> targetKey.add(c.name()));
    Map<CqlIdentifier, Column> columns = new java.util.LinkedHashMap<>();
    List<MessageType> schemas = new ArrayList<>();
    for (ParquetFile file : files) {
      MessageType schema = ParquetFiles.schema(KEY, file, conf);
      schemas.add(schema);
      for (Type field : schema.getFields()) {
        CqlIdentifier name = CqlIdentifier.fromInternal(field.getName());
        CqlIdentifier to = renames.getOrDefault(name, name);
        DataType type = target.column(to).map(Column::type).orElse(DataTypes.BLOB);
        if (!dropped.contains(name) && target.column(to).isPresent()) {
          String misfit = ParquetColumns.fits(field, type);
          if (misfit != null) {
            throw new ConfigException(
                KEY,
                file.path() + ", field " + field.getName(),
                "a field whose values fit target column " + to.asCql(true) + ": " + misfit);
          }
        }
        columns.putIfAbsent(name, new Column(name, type));
      }
    }
    for (int i = 0; i < files.size(); i++) {
      for (Column c : columns.values()) {
        CqlIdentifier to = renames.getOrDefault(c.name(), c.name());
        if (targetKey.contains(to)
            && !dropped.contains(c.name())
            && !schemas.get(i).containsField(c.name().asInternal())) {
          throw new ConfigException(
              KEY,
              files.get(i).path(),
              "a file with field "
                  + c.name().asInternal()
                  + ", which fills target primary-key column "
                  + to.asCql(true));
        }
      }
    }
    return new TableSchema(
        CqlIdentifier.fromInternal("parquet"),
        CqlIdentifier.fromInternal(config.source().fileName()),
        List.of(),
        List.of(),
        List.copyOf(columns.values()));
  }

  /**
   * A reader of records as groups, on the file's configuration (the path-based builder makes a
   * configuration of its own, which reads Hadoop's XML resources for every file).
   */
  private static final class GroupFileReader extends ParquetReader.Builder<Group> {
    GroupFileReader(HadoopInputFile file) {
      super(file);
    }

    @Override
    protected ReadSupport<Group> getReadSupport() {
      return new GroupReadSupport();
    }
  }

  @Override
  public UnitRows open(WorkUnit unit) {
    ParquetFile file = (ParquetFile) unit;
    Configuration conf = ParquetFiles.configuration(config.source().parquet(), config.spark());
    try {
      ParquetReader<Group> reader =
          new GroupFileReader(HadoopInputFile.fromPath(new Path(file.path()), conf)).build();
      return new Records(file, reader, plan.source().columns(), plan.source().types());
    } catch (IOException e) {
      throw ParquetFiles.failure("cannot open " + file.path(), e);
    }
  }

  /** The records of one file, converted to the select list's values. */
  private static final class Records implements UnitRows {
    private final ParquetFile file;
    private final ParquetReader<Group> reader;
    private final List<String> names;
    private final List<DataType> types;
    private final List<TypeCodec<Object>> codecs = new ArrayList<>();
    private int[] fields;
    private Group next;
    private long record;

    Records(
        ParquetFile file, ParquetReader<Group> reader, List<String> names, List<DataType> types) {
      this.file = file;
      this.reader = reader;
      this.names = names;
      this.types = types;
      types.forEach(t -> codecs.add(CodecRegistry.DEFAULT.codecFor(t)));
      advance();
    }

    private void advance() {
      try {
        next = reader.read();
      } catch (IOException | RuntimeException e) {
        throw new IllegalStateException(
            "cannot read " + file.path() + " after record " + record + ": " + e.getMessage(), e);
      }
      if (next != null && fields == null) {
        GroupType schema = next.getType();
        fields = new int[names.size()];
        for (int i = 0; i < fields.length; i++) {
          fields[i] = schema.containsField(names.get(i)) ? schema.getFieldIndex(names.get(i)) : -1;
        }
      }
    }

    @Override
    public boolean hasNext() {
      return next != null;
    }

    @Override
    public SourceRow next() {
      if (next == null) {
        throw new NoSuchElementException();
      }
      Group group = next;
      long number = record++;
      ByteBuffer[] values = new ByteBuffer[fields.length];
      String error = null;
      for (int i = 0; i < fields.length && error == null; i++) {
        try {
          Object value = fields[i] < 0 ? null : ParquetColumns.read(group, fields[i], types.get(i));
          values[i] = value == null ? null : codecs.get(i).encode(value, ProtocolVersion.DEFAULT);
        } catch (RuntimeException e) {
          error = "field " + names.get(i) + ": " + e.getMessage();
        }
      }
      advance();
      return new ConvertedRow(
          values, error, error == null ? null : file.path() + " record " + number);
    }

    @Override
    public void close() {
      try {
        reader.close();
      } catch (IOException e) {
        throw ParquetFiles.failure("cannot close " + file.path(), e);
      }
    }
  }
}
