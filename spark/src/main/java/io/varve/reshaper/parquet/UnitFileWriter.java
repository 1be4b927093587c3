package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.core.limit.RateLimiter;
import io.varve.reshaper.copy.RowWriter;
import io.varve.reshaper.copy.TargetRow;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.util.HadoopOutputFile;

/**
 * Writes the rows of one unit of work to one Parquet file: under a hidden name ({@code
 * .<name>.inprogress}, which Spark and pyarrow skip) until {@link #commit} renames it into place,
 * replacing the file of an earlier attempt; {@link #close} without a commit deletes it. Not
 * thread-safe.
 */
final class UnitFileWriter implements RowWriter {
  private final FileSystem fs;
  private final Path file;
  private final Path inProgress;
  private final List<TypeCodec<Object>> codecs = new ArrayList<>();
  private final ParquetWriter<Object[]> writer;
  private final RateLimiter rows;
  private final RateLimiter bytes;
  private boolean closed;
  private boolean committed;
  private long written;

  UnitFileWriter(
      Configuration conf,
      Path file,
      List<String> names,
      List<DataType> types,
      double rowsPerSecond,
      double bytesPerSecond) {
    this.file = file;
    this.inProgress = new Path(file.getParent(), "." + file.getName() + ".inprogress");
    types.forEach(t -> codecs.add(CodecRegistry.DEFAULT.codecFor(t)));
    this.rows = new RateLimiter(rowsPerSecond);
    this.bytes = new RateLimiter(bytesPerSecond);
    try {
      this.fs = file.getFileSystem(conf);
      // no .crc files beside the part files of a local directory
      fs.setWriteChecksum(false);
      this.writer = RowWriteSupport.open(HadoopOutputFile.fromPath(inProgress, conf), names, types);
    } catch (IOException e) {
      throw ParquetFiles.failure("cannot create " + inProgress, e);
    }
  }

  @Override
  public void accept(TargetRow row) {
    Object[] values = new Object[codecs.size()];
    long size = 0;
    for (int i = 0; i < values.length; i++) {
      byte[] value = row.value(i);
      if (value != null) {
        values[i] = codecs.get(i).decode(ByteBuffer.wrap(value), ProtocolVersion.DEFAULT);
        size += value.length;
      }
    }
    rows.acquire(1);
    bytes.acquire(size);
    try {
      writer.write(values);
    } catch (IOException e) {
      throw ParquetFiles.failure("cannot write " + inProgress, e);
    }
    written++;
  }

  @Override
  public void finish() {
    closeWriter();
  }

  @Override
  public long written() {
    return written;
  }

  @Override
  public void commit() {
    try {
      if (fs.exists(file)) {
        fs.delete(file, false);
      }
      if (!fs.rename(inProgress, file)) {
        throw new IOException("rename to " + file + " refused");
      }
      committed = true;
    } catch (IOException e) {
      throw ParquetFiles.failure("cannot commit " + inProgress, e);
    }
  }

  @Override
  public void close() {
    try {
      closeWriter();
    } finally {
      if (!committed) {
        try {
          fs.delete(inProgress, false);
        } catch (IOException e) {
          // the next attempt of the unit overwrites it; a hidden name is skipped by readers
        }
      }
    }
  }

  private void closeWriter() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      writer.close();
    } catch (IOException e) {
      throw ParquetFiles.failure("cannot finish " + inProgress, e);
    }
  }
}
