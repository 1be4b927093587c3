package io.varve.local;

import java.net.InetSocketAddress;

/**
 * What the pid file of a local node says, checked against the running processes.
 *
 * @param state running, stopped, or a stale pid file
 * @param pid the pid from the pid file; 0 when {@link State#STOPPED}
 * @param cqlAddress where the node serves (or would serve) CQL
 */
public record CassandraStatus(State state, long pid, InetSocketAddress cqlAddress) {

  /** The three states of a node's pid file. */
  public enum State {
    /** The pid file names a live Cassandra process of this home; it may still be starting. */
    RUNNING,
    /** No pid file: the node was never started or was stopped. */
    STOPPED,
    /**
     * The pid file names a process that is gone or is not this node, typically after a crash or
     * a kill. The next start replaces it; no signal is ever sent to that pid.
     */
    STALE
  }

  /** Whether the node's process is alive. */
  public boolean isRunning() {
    return state == State.RUNNING;
  }
}
