package io.varve.core.error;

/**
 * A failure of a store Varve relies on (Cassandra, the index store), classified by the adapter that
 * met it, at its boundary, by what a caller can do about it. Adapters never let a client library's
 * exception out: its original is kept as the cause, for logs, and nothing above the adapter looks
 * at it.
 *
 * <p>The message says which store and what happened, e.g. {@code storage timed out: Cassandra
 * timeout during write query at consistency QUORUM}; the advice to the caller (retry or not) is
 * added where failures meet the caller, in one mapping.
 */
public final class StorageException extends VarveException {

  /** Which store failed. */
  public enum Store {
    /** The primary store of events and metadata: Cassandra or ScyllaDB. */
    PRIMARY("storage"),
    /** The index store behind search and aggregate: OpenSearch. */
    INDEX("the index store");

    private final String noun;

    Store(String noun) {
      this.noun = noun;
    }
  }

  /** What happened, grouped by what a caller can do about it. */
  public enum Reason {
    /**
     * No node, replica or connection could take the request (down, restarting, unreachable): retry
     * later.
     */
    UNAVAILABLE("is unavailable", Kind.UNAVAILABLE),
    /** The store did not answer in time; the request may or may not have been applied: retry. */
    TIMEOUT("timed out", Kind.UNAVAILABLE),
    /** The store refused the request as too busy: retry later, with backoff. */
    OVERLOADED("is overloaded", Kind.UNAVAILABLE),
    /**
     * The store refused the request as its schema or permissions stand (a table or index dropped
     * behind Varve's back, a role without the grant): retrying as is fails the same way until an
     * operator repairs the store.
     */
    REFUSED("refused the request", Kind.FAILED_PRECONDITION),
    /** Anything else: a defect in Varve or in the store. */
    INTERNAL("failed", Kind.INTERNAL);

    private final String phrase;
    private final Kind kind;

    Reason(String phrase, Kind kind) {
      this.phrase = phrase;
      this.kind = kind;
    }

    /** The kind of failure the caller sees. */
    public Kind kind() {
      return kind;
    }
  }

  private final Store store;
  private final Reason reason;
  private final String detail;

  /**
   * @param store which store failed; its name starts the message ({@code storage}, {@code the index
   *     store})
   * @param reason what happened
   * @param detail the store's own words
   * @param cause the client library's exception, kept for logs; may be null
   */
  public StorageException(Store store, Reason reason, String detail, Throwable cause) {
    super(reason.kind(), store.noun + " " + reason.phrase + ": " + detail, cause);
    this.store = store;
    this.reason = reason;
    this.detail = detail;
  }

  /**
   * The same failure, its detail preceded by where it happened ({@code cassandra cluster
   * 'analytics'}), for a store of several.
   */
  public StorageException in(String where) {
    return new StorageException(store, reason, where + ": " + detail, getCause());
  }

  public Store store() {
    return store;
  }

  public Reason reason() {
    return reason;
  }

  /** Whether the same request may succeed when sent again later. */
  public boolean retryable() {
    return kind() == Kind.UNAVAILABLE;
  }
}
