package io.varve.client;

/**
 * What a paging iterator does with a partial page: one the server cut short to meet the namespace's
 * latency objective (its {@code partial} flag), its page token continuing it.
 */
public enum Paging {
  /** Return each page as the server sent it, partial ones included: the lowest latency. */
  ACCEPT_PARTIAL_PAGES,
  /**
   * Follow a partial page's token at once and return it merged with what follows, until a page the
   * server did not cut short (or the end): pages as large as asked, at the cost of latency.
   */
  COMPLETE_PAGES
}
