package io.varve.reshaper.config;

import static io.varve.reshaper.config.JobOptions.BILLING_MODE;
import static io.varve.reshaper.config.JobOptions.CREATE_TABLE;
import static io.varve.reshaper.config.JobOptions.DYNAMODB_ACCESS_KEY;
import static io.varve.reshaper.config.JobOptions.DYNAMODB_ENDPOINT_HOST;
import static io.varve.reshaper.config.JobOptions.DYNAMODB_ENDPOINT_PORT;
import static io.varve.reshaper.config.JobOptions.DYNAMODB_REGION;
import static io.varve.reshaper.config.JobOptions.DYNAMODB_SECRET_KEY;
import static io.varve.reshaper.config.JobOptions.DYNAMODB_TABLE;
import static io.varve.reshaper.config.JobOptions.READ_PERCENT;
import static io.varve.reshaper.config.JobOptions.READ_THROUGHPUT;
import static io.varve.reshaper.config.JobOptions.SCAN_SEGMENTS;
import static io.varve.reshaper.config.JobOptions.SKIP_SNAPSHOT;
import static io.varve.reshaper.config.JobOptions.STREAM_CHANGES;
import static io.varve.reshaper.config.JobOptions.WRITE_PERCENT;
import static io.varve.reshaper.config.JobOptions.WRITE_THROUGHPUT;
import static io.varve.reshaper.config.JobOptions.value;

import io.varve.options.OptionValues;
import java.io.Serializable;
import java.net.URI;

/**
 * A side of type {@code dynamodb}: a DynamoDB table (or ScyllaDB's Alternator, DynamoDB Local),
 * with the ScyllaDB migrator's keys.
 *
 * @param table {@code table}
 * @param endpoint {@code endpoint.host} and {@code endpoint.port} as a URL, or null for the
 *     region's DynamoDB
 * @param region {@code region}, default {@code us-east-1}
 * @param accessKey {@code credentials.accessKey}, or null for the SDK's default chain
 * @param secretKey {@code credentials.secretKey}
 * @param scanSegments {@code scanSegments}, 0 = the default
 * @param readThroughput {@code readThroughput}, or null for the table's own
 * @param readPercent {@code throughputReadPercent}
 * @param writeThroughput {@code writeThroughput}, or null for the table's own
 * @param writePercent {@code throughputWritePercent}
 * @param createTable {@code createTable}
 * @param billingMode {@code billingMode}
 */
public record DynamoDbSettings(
    String table,
    URI endpoint,
    String region,
    String accessKey,
    String secretKey,
    int scanSegments,
    Double readThroughput,
    double readPercent,
    Double writeThroughput,
    double writePercent,
    boolean createTable,
    String billingMode)
    implements Serializable {

  static DynamoDbSettings read(OptionValues s, boolean source) {
    String accessKey = value(s, DYNAMODB_ACCESS_KEY);
    String secretKey = value(s, DYNAMODB_SECRET_KEY);
    if ((accessKey == null) != (secretKey == null)) {
      throw new ConfigException(
          s.prefix() + ".credentials",
          accessKey == null ? "secretKey only" : "accessKey only",
          "both accessKey and secretKey, or neither");
    }
    for (var option : java.util.List.of(STREAM_CHANGES, SKIP_SNAPSHOT)) {
      if (value(s, option)) {
        throw new ConfigException(
            s.key(option),
            true,
            "false: change streams are not supported; the job copies a snapshot");
      }
    }
    var ofSource = java.util.List.of(SCAN_SEGMENTS, READ_THROUGHPUT, READ_PERCENT);
    var ofTarget = java.util.List.of(WRITE_THROUGHPUT, WRITE_PERCENT, CREATE_TABLE, BILLING_MODE);
    for (var option : source ? ofTarget : ofSource) {
      if (s.isSet(option)) {
        throw new ConfigException(
            s.key(option),
            s.optional(option).orElseThrow(),
            "no value: this key belongs to the " + (source ? "target" : "source") + " section");
      }
    }
    String host = value(s, DYNAMODB_ENDPOINT_HOST);
    Integer port = value(s, DYNAMODB_ENDPOINT_PORT);
    if (host == null && port != null) {
      throw new ConfigException(s.prefix() + ".endpoint.host", "missing", "a host, with a port");
    }
    URI endpoint = null;
    if (host != null) {
      String url = host.contains("://") ? host : "https://" + host;
      try {
        URI parsed = URI.create(url);
        if (parsed.getHost() == null
            || !(parsed.getScheme().equals("http") || parsed.getScheme().equals("https"))
            || parsed.getPort() != -1 && port != null) {
          throw new IllegalArgumentException("no host");
        }
        endpoint = port == null ? parsed : URI.create(url + ":" + port);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(
            s.key(DYNAMODB_ENDPOINT_HOST),
            host,
            "a host name or address, optionally after http:// or https://, its port in"
                + " endpoint.port");
      }
    }
    String region = value(s, DYNAMODB_REGION);
    Integer segments = value(s, SCAN_SEGMENTS);
    return new DynamoDbSettings(
        value(s, DYNAMODB_TABLE),
        endpoint,
        region == null ? "us-east-1" : region,
        accessKey,
        secretKey,
        segments == null ? 0 : segments,
        value(s, READ_THROUGHPUT),
        value(s, READ_PERCENT),
        value(s, WRITE_THROUGHPUT),
        value(s, WRITE_PERCENT),
        value(s, CREATE_TABLE),
        value(s, BILLING_MODE));
  }
}
