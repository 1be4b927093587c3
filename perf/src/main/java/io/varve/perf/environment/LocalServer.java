package io.varve.perf.environment;

/**
 * A local server a benchmark uses: the development Cassandra, OpenSearch or DynamoDB Local of
 * {@code varve local}, with its data under {@code .varve/}.
 *
 * @param name how progress lines name it: {@code Cassandra}, {@code OpenSearch}, {@code DynamoDB
 *     Local}
 * @param address where clients reach it: {@code 127.0.0.1:9042} (CQL), {@code
 *     http://127.0.0.1:9200}
 * @param startedHere whether this run started it, and so stops it at its end; false when it already
 *     ran
 * @param pid its process
 */
public record LocalServer(String name, String address, boolean startedHere, long pid) {}
