/**
 * The client's implementation: channels per endpoint, hedged and retried calls, handshakes, value
 * compression. Public for the {@code io.varve.client} package only; not a contract.
 */
package io.varve.client.internal;
