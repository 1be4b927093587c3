package io.varve.reshaper.plan;

import java.io.Serializable;

/**
 * How a job reads its source, one token range at a time.
 *
 * @param selectCql the scan of one token range: two bind markers, start (exclusive) and end
 * @param partitionKeyCount the first columns of the select list that form the source partition key
 */
public record SourceScan(String selectCql, int partitionKeyCount) implements Serializable {}
