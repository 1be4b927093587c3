package io.varve.verify.reliability;

/**
 * An event as ReadEventRecords returned it: its identity and the value of its item {@code v} (null
 * if absent).
 */
public record ReadEvent(String timeSeriesId, String eventTime, String eventId, byte[] value) {}
