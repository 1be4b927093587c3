package io.varve.reshaper.config;

import static io.varve.reshaper.config.JobTypes.instant;
import static io.varve.reshaper.config.JobTypes.integer;
import static io.varve.reshaper.config.JobTypes.longInteger;
import static io.varve.reshaper.config.JobTypes.nonBlank;

import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.format.ValueCodec;
import io.varve.options.Option;
import io.varve.options.OptionException;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The options of the Spark data sources of Varve's namespaces ({@code varve-timeseries}, {@code
 * varve-kv}): the connection keys of the reshaper's job file ({@link JobOptions#CONNECTION}, at the
 * top level: {@code host}, {@code port}, {@code credentials.username}, {@code sslOptions.enabled},
 * ...) and the keys of this registry. A key that is neither is refused, naming the known keys: a
 * misspelt {@code form} must not read the whole namespace. docs/spark-data-sources.md lists them
 * all, generated from these declarations.
 */
public final class NamespaceSourceOptions {

  private static final Options.Builder OWN = Options.builder();

  public static final Option<String> NAMESPACE =
      OWN.option("namespace", nonBlank("the name of an existing namespace"))
          .doc("The namespace to read or write. Required.");
  public static final Option<Instant> FROM =
      OWN.option("from", instant())
          .defaultDoc("the oldest slice's start")
          .doc("`varve-timeseries` reads: events at or after this time (inclusive).");
  public static final Option<Instant> TO =
      OWN.option("to", instant())
          .defaultDoc("the newest slice's end")
          .doc("`varve-timeseries` reads: events before this time (exclusive).");
  public static final Option<String> METADATA_KEYSPACE =
      OWN.option("metadataKeyspace", nonBlank("a keyspace name"))
          .defaultValue("varve")
          .doc(
              "The keyspace of the control plane's tables: the server's `cassandra.metadataKeyspace`.");
  public static final Option<Integer> COMPRESSION_THRESHOLD =
      OWN.option("compressionThreshold", integer(1, Integer.MAX_VALUE))
          .defaultValue(ValueCodec.DEFAULT_THRESHOLD)
          .doc(
              "Writes: values of at least this many bytes are stored zstd-compressed when that saves"
                  + " an eighth, as the server stores them: the server's"
                  + " `cassandra.compressionThreshold`.");
  public static final Option<Long> MAX_BAD_ROWS =
      OWN.option("maxBadRows", longInteger(0, Long.MAX_VALUE))
          .defaultValue(0L)
          .doc(
              "Writes: rows the namespace refuses (outside its write window, over a limit) that a"
                  + " write may skip before it fails. Each task fails at its first refused row past"
                  + " this count; the job's total is checked when it commits.");

  public static final Option<TokenSpan> TOKEN_RANGE =
      OWN.option("tokenRange", JobTypes.tokenSpan())
          .defaultDoc("the whole ring")
          .doc(
              "Reads: only the partitions whose token is in (START, END], cut into `splitCount`"
                  + " parts: a share of a namespace for one job of several (`varve export` of a"
                  + " KeyValue namespace exports it in 16 such shares).");
  public static final Option<String> TOKEN =
      OWN.option("token", nonBlank("1.." + KvLimits.MAX_TOKEN_CHARS + " characters"))
          .defaultValue("varve-spark")
          .doc(
              "`varve-kv` writes: the nonce of the idempotency token of every item written, beside"
                  + " its generation time. A rerun with the same token and generation times writes"
                  + " the same cells at the same timestamps: it leaves one copy, and a newer write"
                  + " made meanwhile stays newer.");
  public static final Option<Instant> GENERATION_TIME =
      OWN.option("generationTime", instant())
          .defaultDoc("the time the write is planned, on the driver")
          .doc(
              "`varve-kv` writes: the generation time (the write timestamp) of rows without a"
                  + " `generation_time` column or with a null one. Give it, or the column, for a"
                  + " rerun to be harmless.");
  public static final Option<Integer> CHUNK_THRESHOLD =
      OWN.option("chunkThreshold", integer(64 * KvLimits.KIB, 4 * KvLimits.MIB))
          .defaultValue(KvChunking.DEFAULT.threshold())
          .doc(
              "`varve-kv` writes: values of more bytes than this go to the chunk table, as the"
                  + " server stores them: the server's `kv.chunks.threshold`.");
  public static final Option<Integer> CHUNK_SIZE =
      OWN.option("chunkSize", integer(64 * KvLimits.KIB, 4 * KvLimits.MIB))
          .defaultValue(KvChunking.DEFAULT.chunkSize())
          .doc("`varve-kv` writes: bytes of one chunk: the server's `kv.chunks.chunkSize`.");

  /**
   * A part {@code (start, end]} of the Murmur3 token ring.
   *
   * @param start exclusive
   * @param end inclusive
   */
  public record TokenSpan(long start, long end) implements java.io.Serializable {
    public static final TokenSpan RING = new TokenSpan(Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /** This registry's own keys. */
  public static final Options OWN_KEYS = OWN.build();

  /** Every key a data source of a namespace takes. */
  public static final Options ALL = Options.of(JobOptions.CONNECTION, OWN_KEYS);

  private NamespaceSourceOptions() {}

  /**
   * The values of a data source's options, as the user wrote them (Spark hands them over in a
   * case-insensitive map; {@code asCaseSensitiveMap()} keeps the user's spelling).
   *
   * @throws ConfigException on an unknown key, a value of the wrong type or range, or a missing
   *     namespace, naming the key
   */
  public static OptionValues read(Map<String, String> options) {
    Properties properties = new Properties();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = canonical(e.getKey());
      if (key == null) {
        throw new ConfigException(
            e.getKey(), e.getValue(), "a key of the data source: one of " + knownKeys());
      }
      properties.setProperty(key, e.getValue());
    }
    try {
      OptionValues values = OptionValues.fromProperties(ALL, properties);
      for (Option<?> option : ALL.options()) {
        values.optional(option); // every value checked now, before anything is read or written
      }
      if (values.optional(NAMESPACE).isEmpty()) {
        throw new ConfigException("namespace", "missing", "the name of an existing namespace");
      }
      Optional<Instant> from = values.optional(FROM);
      Optional<Instant> to = values.optional(TO);
      if (from.isPresent() && to.isPresent() && !from.get().isBefore(to.get())) {
        throw new ConfigException("to", to.get() + " with from " + from.get(), "a time after from");
      }
      return values;
    } catch (OptionException e) {
      throw new ConfigException(e.getMessage(), e);
    }
  }

  /** Keys only {@code varve-timeseries} takes. */
  public static final java.util.Set<Option<?>> TIME_SERIES_ONLY = java.util.Set.of(FROM, TO);

  /** Keys only {@code varve-kv} takes. */
  public static final java.util.Set<Option<?>> KEY_VALUE_ONLY =
      java.util.Set.of(TOKEN, GENERATION_TIME, CHUNK_THRESHOLD, CHUNK_SIZE);

  /**
   * Refuses a key of the other data source: it would have no effect.
   *
   * @param format {@code varve-timeseries} or {@code varve-kv}
   */
  public static void requireOwn(OptionValues values, String format) {
    java.util.Set<Option<?>> other = format.equals("varve-kv") ? TIME_SERIES_ONLY : KEY_VALUE_ONLY;
    for (Option<?> option : other) {
      if (values.isSet(option)) {
        throw new ConfigException(
            option.key(),
            String.valueOf(values.optional(option).orElse(null)),
            "no such key for " + format + " (it has no effect there); remove it");
      }
    }
  }

  /** The default of a key as docs/spark-data-sources.md gives it. */
  public static String defaultDoc(Option<?> option) {
    if (option == NAMESPACE) {
      return "required";
    }
    if (option == JobOptions.SPLIT_COUNT) {
      return "`max(4 × task slots, 16 × nodes)`";
    }
    if (option == JobOptions.CONSISTENCY_LEVEL) {
      return "the namespace's (`LOCAL_QUORUM` for its default consistency)";
    }
    if (JobOptions.CONNECTION.contains(option)) {
      return JobOptions.defaultDoc(option);
    }
    String doc = option.defaultDoc(OptionValues.defaults(OWN_KEYS));
    return doc.equals("absent") ? "none" : doc;
  }

  /** A key as declared, matched ignoring case (Spark lower-cases the keys it is given); or null. */
  private static String canonical(String key) {
    for (Option<?> option : ALL.options()) {
      if (option.key().equalsIgnoreCase(key)) {
        return option.key();
      }
    }
    return null;
  }

  private static String knownKeys() {
    TreeSet<String> keys = new TreeSet<>();
    ALL.options().forEach(o -> keys.add(o.key()));
    return String.join(", ", keys);
  }
}
