package io.varve.core.read;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of the events one read keeps for its response, against the page's byte limit: each
 * event's keys and values are held from the server's {@link ResponseMemory} as the read keeps it,
 * and once the read has kept {@code limit} bytes its partition reads stop at the next fetch, each
 * after at least one event of its own, so that a page always makes progress. A page thus ends
 * early, with a token to go on from, rather than hold hundreds of MiB of large events.
 *
 * <p>Thread-safe: the partitions of one read keep events from the store's I/O threads at once.
 */
public final class ReadBytes {

  private final long limit;
  private final ResponseMemory memory;
  private final AtomicLong kept = new AtomicLong();

  /**
   * @param limit the bytes after which the read stops fetching (it may pass it by what its
   *     partitions fetched meanwhile), at least 1
   * @param memory where each kept event's bytes are held first
   */
  public ReadBytes(long limit, ResponseMemory memory) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit: " + limit + " (expected: at least 1)");
    }
    this.limit = limit;
    this.memory = memory;
  }

  /** No byte limit, nothing held: outside a server, or for reads that must not stop early. */
  public static ReadBytes unlimited() {
    return new ReadBytes(Long.MAX_VALUE, ResponseMemory.UNBOUNDED);
  }

  /** No byte limit; each kept event still held from {@code memory}. */
  public static ReadBytes unlimited(ResponseMemory memory) {
    return new ReadBytes(Long.MAX_VALUE, memory);
  }

  /**
   * Holds and counts the bytes of an event the read keeps.
   *
   * @throws io.varve.core.error.VarveException of kind {@code RESOURCE_EXHAUSTED} when the server
   *     has no room for them
   */
  public void keep(long bytes) {
    memory.hold(bytes);
    kept.addAndGet(bytes);
  }

  /** Whether the read has kept its limit: its partitions fetch no further page. */
  public boolean full() {
    return kept.get() >= limit;
  }

  /** The bytes kept so far. */
  public long kept() {
    return kept.get();
  }

  public long limit() {
    return limit;
  }
}
