package io.varve.reshaper.config;

import static io.varve.reshaper.config.JobOptions.PARQUET_ACCESS_KEY;
import static io.varve.reshaper.config.JobOptions.PARQUET_ENDPOINT_HOST;
import static io.varve.reshaper.config.JobOptions.PARQUET_ENDPOINT_PORT;
import static io.varve.reshaper.config.JobOptions.PARQUET_PATH;
import static io.varve.reshaper.config.JobOptions.PARQUET_REGION;
import static io.varve.reshaper.config.JobOptions.PARQUET_ROLE_ARN;
import static io.varve.reshaper.config.JobOptions.PARQUET_ROLE_SESSION;
import static io.varve.reshaper.config.JobOptions.PARQUET_SECRET_KEY;
import static io.varve.reshaper.config.JobOptions.value;

import io.varve.options.OptionValues;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A side of type {@code parquet}: where its files are, and the Hadoop file system options its
 * {@code credentials}, {@code region} and {@code endpoint} keys (the ScyllaDB migrator's, for S3)
 * stand for.
 *
 * @param path {@code path}: a file or a directory, a local path or a Hadoop file system URL
 * @param hadoopOptions Hadoop configuration entries ({@code fs.s3a.*}) these keys set
 */
public record ParquetSettings(String path, Map<String, String> hadoopOptions)
    implements Serializable {

  static ParquetSettings read(OptionValues s) {
    Map<String, String> hadoop = new LinkedHashMap<>();
    String accessKey = value(s, PARQUET_ACCESS_KEY);
    String secretKey = value(s, PARQUET_SECRET_KEY);
    if ((accessKey == null) != (secretKey == null)) {
      throw new ConfigException(
          s.prefix() + ".credentials",
          accessKey == null ? "secretKey only" : "accessKey only",
          "both accessKey and secretKey, or neither");
    }
    if (accessKey != null) {
      hadoop.put("fs.s3a.access.key", accessKey);
      hadoop.put("fs.s3a.secret.key", secretKey);
    }
    String role = value(s, PARQUET_ROLE_ARN);
    if (role != null) {
      hadoop.put(
          "fs.s3a.aws.credentials.provider",
          "org.apache.hadoop.fs.s3a.auth.AssumedRoleCredentialProvider");
      hadoop.put("fs.s3a.assumed.role.arn", role);
      String session = value(s, PARQUET_ROLE_SESSION);
      hadoop.put("fs.s3a.assumed.role.session.name", session == null ? "varve-reshaper" : session);
    }
    String region = value(s, PARQUET_REGION);
    if (region != null) {
      hadoop.put("fs.s3a.endpoint.region", region);
    }
    String host = value(s, PARQUET_ENDPOINT_HOST);
    Integer port = value(s, PARQUET_ENDPOINT_PORT);
    if (host == null && port != null) {
      throw new ConfigException(s.prefix() + ".endpoint.host", "missing", "a host, with a port");
    }
    if (host != null) {
      hadoop.put("fs.s3a.endpoint", port == null ? host : host + ":" + port);
    }
    return new ParquetSettings(value(s, PARQUET_PATH), Map.copyOf(hadoop));
  }

  /** The last name of the path, for the job's file names. */
  String lastName() {
    String trimmed = path.replaceAll("/+$", "");
    String last = trimmed.substring(trimmed.lastIndexOf('/') + 1);
    return last.isEmpty() ? "root" : last;
  }
}
