package io.varve.core.index;

/**
 * The position after the last event of a search page, in the search order: event time descending,
 * then event id, then time series id, ascending.
 */
public record SearchCursor(long eventTimeMillis, String eventId, String timeSeriesId) {}
