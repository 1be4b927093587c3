package io.varve.reshaper.parquet;

import io.varve.reshaper.plan.WorkUnit;

/**
 * One file of a Parquet source: a unit of work.
 *
 * @param index its position among the source's files, sorted by path
 * @param path its full path or URL
 * @param length its size in bytes when listed
 */
public record ParquetFile(int index, String path, long length) implements WorkUnit {}
