package io.varve.server.transport;

import io.varve.server.controlplane.ControlPlaneHandler;
import io.varve.server.dataplane.DataPlaneHandler;
import io.varve.server.dataplane.SearchHandler;
import io.varve.server.handshake.Handshakes;
import io.varve.server.index.Backfill;
import io.varve.server.kv.KeyValueHandler;
import io.varve.server.metrics.SloCounters;

/**
 * The server's handlers, whose methods answer the RPCs (which one answers which: {@link ApiCalls}),
 * and the counters that measure their answers against each namespace's objectives.
 */
record ApiHandlers(
    ControlPlaneHandler control,
    Backfill backfill,
    DataPlaneHandler data,
    SearchHandler search,
    KeyValueHandler kv,
    Handshakes handshakes,
    SloCounters slo) {}
