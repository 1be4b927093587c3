package io.varve.format;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A KeyValue namespace's tables: the item table of the reference text's shape, {@code (id text, key
 * blob, value blob, value_metadata blob, PRIMARY KEY (id, key))}, where the {@code value} cell
 * starts with the same bytes as {@code value_metadata} ({@code ValueMetadata.frame}); beside it the
 * chunk table of large values, {@code (id, key, generation, nonce, chunk, data)}, every chunk its
 * own partition addressed by the version that wrote it (the idempotency token's generation time and
 * nonce); and the staging log of chunked values, {@value #CHUNK_LOG} in the metadata keyspace,
 * which the server's chunk sweeper reads. The server's item store writes and reads these tables by
 * these statements, and so do the Spark data source {@code varve-kv} and the export. Keyspace and
 * table names come validated as {@code [a-z][a-z0-9_]*}; every value is a bind marker.
 */
public final class ItemTable {

  public static final String ID = "id";
  public static final String KEY = "key";
  public static final String VALUE = "value";
  public static final String VALUE_METADATA = "value_metadata";

  /** The item table's columns. */
  public static final List<String> COLUMNS = List.of(ID, KEY, VALUE, VALUE_METADATA);

  public static final String GENERATION = "generation";
  public static final String NONCE = "nonce";
  public static final String CHUNK = "chunk";
  public static final String DATA = "data";

  /** The chunk table's partition key, in order: every column but {@link #DATA}. */
  public static final List<String> CHUNK_KEY = List.of(ID, KEY, GENERATION, NONCE, CHUNK);

  /** The staging log's table, in the metadata keyspace. */
  public static final String CHUNK_LOG = "kv_chunk_log";

  /** Partitions of the staging log. */
  public static final int CHUNK_LOG_SHARDS = 16;

  /**
   * The parts a client staged in the chunked protocol, in the metadata keyspace: one row per part
   * (its size and CRC32C), kept until the value's commit reads them.
   */
  public static final String CHUNK_PARTS = "kv_chunk_parts";

  /** The staging log's columns, in the order of {@link #insertIntoChunkLog}'s markers. */
  public static final String CHUNK_LOG_COLUMNS =
      "shard, due, keyspace_name, table_name, id, key, generation, nonce, chunks";

  private static final String CHUNK_SUFFIX = "_chunks";
  private static final int MAX_NAME = 48;

  private ItemTable() {}

  /**
   * The chunk table's name: {@code <table>_chunks}, or, when that exceeds the 48 characters
   * Cassandra allows, the table's first 32 characters, {@code _}, 8 hex digits of the CRC32C of the
   * whole table name, then {@code _chunks}.
   */
  public static String chunkTable(String table) {
    if (table.length() + CHUNK_SUFFIX.length() <= MAX_NAME) {
      return table + CHUNK_SUFFIX;
    }
    CRC32C crc = new CRC32C();
    crc.update(table.getBytes(StandardCharsets.UTF_8));
    return table.substring(0, 32)
        + "_"
        + HexFormat.of().toHexDigits((int) crc.getValue())
        + CHUNK_SUFFIX;
  }

  /**
   * {@code INSERT INTO <qualified> (id, key, value, value_metadata) VALUES (?, ?, ?, ?) USING
   * TIMESTAMP ?}, then {@code AND TTL ?} when {@code ttl}: the write timestamp is the token's
   * generation time in microseconds.
   */
  public static String insertInto(String qualified, boolean ttl) {
    return "INSERT INTO "
        + qualified
        + " ("
        + String.join(", ", COLUMNS)
        + ") VALUES (?, ?, ?, ?) USING TIMESTAMP ?"
        + (ttl ? " AND TTL ?" : "");
  }

  /** {@code INSERT} of one chunk: markers id, key, generation, nonce, chunk, data, timestamp. */
  public static String insertChunkInto(String qualifiedChunkTable) {
    return "INSERT INTO "
        + qualifiedChunkTable
        + " ("
        + String.join(", ", CHUNK_KEY)
        + ", "
        + DATA
        + ") VALUES (?, ?, ?, ?, ?, ?) USING TIMESTAMP ?";
  }

  /** {@code SELECT data} of one chunk: markers id, key, generation, nonce, chunk. */
  public static String selectChunkFrom(String qualifiedChunkTable) {
    return "SELECT "
        + DATA
        + " FROM "
        + qualifiedChunkTable
        + " WHERE "
        + String.join(" = ? AND ", CHUNK_KEY)
        + " = ?";
  }

  /**
   * {@code INSERT} of one staging log entry, markers in the order of {@link #CHUNK_LOG_COLUMNS}.
   */
  public static String insertIntoChunkLog(String metadataKeyspace) {
    return "INSERT INTO "
        + metadataKeyspace
        + "."
        + CHUNK_LOG
        + " ("
        + CHUNK_LOG_COLUMNS
        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  }

  /** The staging log partition of an item's entries. */
  public static int chunkLogShard(String id, byte[] key) {
    return Math.floorMod(31 * id.hashCode() + ByteBuffer.wrap(key).hashCode(), CHUNK_LOG_SHARDS);
  }
}
