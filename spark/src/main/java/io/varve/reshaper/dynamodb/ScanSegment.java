package io.varve.reshaper.dynamodb;

import io.varve.reshaper.plan.WorkUnit;

/**
 * One segment of a DynamoDB table's parallel Scan: a unit of work.
 *
 * @param index the segment
 * @param total the Scan's segments
 */
public record ScanSegment(int index, int total) implements WorkUnit {}
