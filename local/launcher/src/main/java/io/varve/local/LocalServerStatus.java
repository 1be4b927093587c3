package io.varve.local;

import java.net.InetSocketAddress;

/**
 * What the pid file of a local server says, checked against the running processes.
 *
 * @param product which server
 * @param state running, stopped, or a stale pid file
 * @param pid the pid from the pid file; 0 when {@link State#STOPPED}
 * @param address where the server serves (or would serve) its clients: CQL for Cassandra, HTTP for
 *     DynamoDB Local and OpenSearch
 */
public record LocalServerStatus(Product product, State state, long pid, InetSocketAddress address) {

  /** The three states of a server's pid file. */
  public enum State {
    /** The pid file names a live process of this server and home; it may still be starting. */
    RUNNING,
    /** No pid file: the server was never started or was stopped. */
    STOPPED,
    /**
     * The pid file names a process that is gone or is not this server, typically after a crash or a
     * kill. The next start replaces it; no signal is ever sent to that pid.
     */
    STALE
  }

  /** Whether the server's process is alive. */
  public boolean isRunning() {
    return state == State.RUNNING;
  }
}
