package io.varve.core.index;

import io.varve.core.event.EventItem;
import java.util.List;
import java.util.Map;

/**
 * One event as indexed.
 *
 * @param index the index slice it goes to
 * @param id document id, a pure function of the event's identity (re-indexing overwrites)
 * @param timeSeriesId the event's time series
 * @param eventTimeMillis the event's time
 * @param eventId the event's id
 * @param fields indexed fields (item key as text) and their parsed values
 * @param items every item, in {@link DocumentMode#FULL_EVENT}; empty otherwise
 */
public record IndexDocument(
    String index,
    String id,
    String timeSeriesId,
    long eventTimeMillis,
    String eventId,
    Map<String, Object> fields,
    List<EventItem> items) {}
