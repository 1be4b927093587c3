package io.varve.local;

import java.net.URI;

/**
 * What the pid file of a local OpenSearch node says, checked against the running processes.
 *
 * @param state running, stopped, or a stale pid file
 * @param pid the pid from the pid file; 0 when {@link State#STOPPED}
 * @param endpoint where the node serves (or would serve) its REST API
 */
public record OpenSearchStatus(State state, long pid, URI endpoint) {

  /** The three states of a node's pid file. */
  public enum State {
    /** The pid file names a live OpenSearch process of this home; it may still be starting. */
    RUNNING,
    /** No pid file: the node was never started or was stopped. */
    STOPPED,
    /** The pid file names a process that is gone or is not this node; never signalled. */
    STALE
  }

  /** Whether the node's process is alive. */
  public boolean isRunning() {
    return state == State.RUNNING;
  }
}
