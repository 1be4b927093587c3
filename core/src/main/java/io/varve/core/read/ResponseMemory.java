package io.varve.core.read;

/**
 * The memory a read's response may hold, asked for before the read holds it. A read learns what it
 * will return (the keys and value sizes of a page, a chunked value's size from its item row) before
 * it fetches the bytes; it asks here first, and a server that has no room left refuses the read
 * rather than run out of heap. What a response of some bytes costs (its copies on the way to the
 * caller) is the server's to say; the store only says how many bytes it returns.
 *
 * <p>Thread-safe: a read may ask from the store's I/O threads. What is held is given back when the
 * call's exchange ends, not here.
 */
@FunctionalInterface
public interface ResponseMemory {

  /** No bound: outside a server (tests, tools), or where nothing is counted. */
  ResponseMemory UNBOUNDED = bytes -> {};

  /**
   * Holds the memory of {@code bytes} more of the response (keys and values, as returned), until
   * the call ends.
   *
   * @throws io.varve.core.error.VarveException of kind {@code RESOURCE_EXHAUSTED} when the server
   *     has no room for them: nothing more was read, the caller may retry later
   */
  void hold(long bytes);
}
