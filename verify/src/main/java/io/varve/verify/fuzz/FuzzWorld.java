package io.varve.verify.fuzz;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The small universe a fuzz run draws names and times from: few namespaces, series, event ids and
 * event times, so that generated requests hit the same event identities again and again (creates
 * meet existing namespaces, writes overwrite earlier writes, reads find data).
 *
 * <p>Namespace names start with {@link #prefix}, so that runs against the same server do not meet
 * each other's namespaces; times are offsets from {@link #baseTime}. A run is reproduced by the
 * same seed, count, prefix and base time.
 */
public record FuzzWorld(String prefix, Instant baseTime) {

  /** Namespaces created at the start of every run, valid configuration. */
  public List<String> dataNamespaces() {
    return List.of(prefix + "a", prefix + "b");
  }

  /** The namespace with an INDEX_STORAGE entry (searches and aggregations find data in it). */
  public String indexedNamespace() {
    return prefix + "ix";
  }

  /** The namespace that receives hostile configuration updates. */
  public String configNamespace() {
    return prefix + "cfg";
  }

  /**
   * The KeyValue namespaces, created at the start of every run: ASC, DESC ({@link
   * #kvDescNamespace}) and one with a CACHE entry ({@link #kvCachedNamespace}).
   */
  public List<String> kvNamespaces() {
    return List.of(prefix + "kva", kvDescNamespace(), kvCachedNamespace());
  }

  public String kvDescNamespace() {
    return prefix + "kvd";
  }

  public String kvCachedNamespace() {
    return prefix + "kvc";
  }

  /** Namespaces a run creates at its start. */
  public List<String> initialNamespaces() {
    List<String> all = new ArrayList<>(dataNamespaces());
    all.add(indexedNamespace());
    all.add(configNamespace());
    all.addAll(kvNamespaces());
    return all;
  }

  /** Names that may be created later in the run (a few, each costs a keyspace). */
  public List<String> spareNamespaces() {
    return List.of(prefix + "n0", prefix + "n1");
  }

  /** Every namespace name of the run, existing or not. */
  public List<String> namespaces() {
    List<String> all = new ArrayList<>(initialNamespaces());
    all.addAll(spareNamespaces());
    all.add(prefix + "absent");
    return all;
  }

  /** Base name of the run's OpenSearch indices. */
  public String indexDataset() {
    return prefix.replace('_', '-') + "ix";
  }

  public List<String> seriesIds() {
    return List.of("s0", "s1", "s2", "s3", "device/\u00fc\u00df-\u2603", "x".repeat(256));
  }

  public List<String> eventIds() {
    return List.of("e0", "e1", "e2", "e3", "\u00e9\u2713", "i".repeat(128));
  }

  /** KeyValue record ids the generated requests use (the last at the 1024-byte limit). */
  public List<String> recordIds() {
    return List.of("r0", "r1", "r2", "rec/\u00fc\u00df-\u2603", "x".repeat(1024));
  }

  /** Record ids only the KeyValue sequences use, so their reads see their own writes only. */
  public List<String> sequenceRecordIds() {
    return List.of("q0", "q1", "q2", "q3");
  }

  /**
   * KeyValue item keys: the empty key, keys that sort around each other as unsigned bytes (0x00,
   * 0xff), non-ASCII, and one at the 4096-byte limit.
   */
  public List<byte[]> itemKeys() {
    return List.of(
        new byte[0],
        "a".getBytes(StandardCharsets.UTF_8),
        "ab".getBytes(StandardCharsets.UTF_8),
        "b".getBytes(StandardCharsets.UTF_8),
        "k\u00e9".getBytes(StandardCharsets.UTF_8),
        new byte[] {0},
        new byte[] {(byte) 0xff},
        "z".getBytes(StandardCharsets.UTF_8),
        "k".repeat(4096).getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Event times: every seven minutes over the last hours (with millisecond offsets that collide),
   * near the future limit, and outside the write window on both sides.
   */
  public List<Instant> eventTimes() {
    List<Instant> times = new ArrayList<>();
    for (int k = 0; k < 12; k++) {
      Instant t = baseTime.minus(Duration.ofMinutes(7L * k));
      times.add(t);
      times.add(t.minusMillis(1));
      times.add(t.plusMillis(999));
    }
    times.add(baseTime.plus(Duration.ofMinutes(30)));
    times.add(baseTime.plus(Duration.ofHours(3)));
    times.add(baseTime.minus(Duration.ofHours(20)));
    times.add(baseTime.minus(Duration.ofDays(40)));
    return times;
  }

  /** The interval a read-back covers: every event time a write may have been acknowledged at. */
  public Instant readFrom() {
    return baseTime.minus(Duration.ofHours(30));
  }

  public Instant readTo() {
    return baseTime.plus(Duration.ofHours(2));
  }
}
