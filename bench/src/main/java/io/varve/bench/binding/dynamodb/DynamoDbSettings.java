package io.varve.bench.binding.dynamodb;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The {@code dynamodb} binding's properties, read and checked once. Names follow YCSB's own
 * DynamoDB binding where it had one, so its property files keep working; docs/bench-dynamodb.md
 * lists them all with their defaults.
 *
 * @param endpoint {@code dynamodb.endpoint}: an endpoint override (DynamoDB Local, Alternator)
 * @param region {@code dynamodb.region}, default {@code us-east-1}
 * @param table YCSB's {@code table}, default {@code usertable}
 * @param primaryKey {@code dynamodb.primaryKey}: the attribute holding YCSB's key
 * @param hashKey {@code dynamodb.hashKeyName} when {@code dynamodb.primaryKeyType} is
 *     {@code HASH_AND_RANGE}: every item then has this hash key set to {@code hashKeyValue}, and
 *     YCSB's key is the range key, so that all items share one partition
 * @param hashKeyValue {@code dynamodb.hashKeyValue}, default {@code YCSB_0}
 * @param consistentReads {@code dynamodb.consistentReads}: strongly consistent reads
 * @param credentials static credentials from {@code dynamodb.accessKey}/{@code secretKey} or
 *     {@code dynamodb.awsCredentialsFile}; empty = the SDK's default chain, or fixed dummy
 *     credentials when an endpoint is given
 * @param maxConnections {@code dynamodb.connectMax} (or {@code dynamodb.maxConnections})
 * @param maxRetries {@code dynamodb.maxRetries}; empty = the SDK's default for DynamoDB
 * @param create {@code dynamodb.create}: create the table if it does not exist
 * @param readCapacityUnits {@code dynamodb.readCapacityUnits}; with {@code writeCapacityUnits},
 *     a created table is provisioned, else on demand (PAY_PER_REQUEST)
 * @param writeCapacityUnits {@code dynamodb.writeCapacityUnits}
 */
record DynamoDbSettings(
    Optional<URI> endpoint, String region, String table, String primaryKey,
    Optional<String> hashKey, String hashKeyValue, boolean consistentReads,
    Optional<String[]> credentials, int maxConnections, OptionalInt maxRetries, boolean create,
    OptionalInt readCapacityUnits, OptionalInt writeCapacityUnits) {

  static final String DEFAULT_PRIMARY_KEY = "y_id";

  static DynamoDbSettings from(Properties properties) throws DBException {
    Reader p = new Reader(properties);
    String keyType = p.string("dynamodb.primaryKeyType", "HASH").toUpperCase();
    if (!keyType.equals("HASH") && !keyType.equals("HASH_AND_RANGE")) {
      throw p.invalid("dynamodb.primaryKeyType", "HASH or HASH_AND_RANGE");
    }
    Optional<String> hashKey = keyType.equals("HASH") ? Optional.empty()
        : Optional.of(p.required("dynamodb.hashKeyName", "an attribute name, required with"
            + " dynamodb.primaryKeyType=HASH_AND_RANGE"));
    OptionalInt read = p.optionalInt("dynamodb.readCapacityUnits", 1, 1_000_000);
    OptionalInt write = p.optionalInt("dynamodb.writeCapacityUnits", 1, 1_000_000);
    if (read.isPresent() != write.isPresent()) {
      throw p.invalid(read.isPresent() ? "dynamodb.writeCapacityUnits"
          : "dynamodb.readCapacityUnits", "set together with the other capacity property");
    }
    String connections = properties.containsKey("dynamodb.connectMax")
        ? "dynamodb.connectMax" : "dynamodb.maxConnections";
    return new DynamoDbSettings(
        p.endpoint("dynamodb.endpoint"),
        p.string("dynamodb.region", "us-east-1"),
        p.string("table", "usertable"),
        p.string("dynamodb.primaryKey", DEFAULT_PRIMARY_KEY),
        hashKey,
        p.string("dynamodb.hashKeyValue", "YCSB_0"),
        p.bool("dynamodb.consistentReads", false),
        p.credentials(),
        p.optionalInt(connections, 1, 10_000).orElse(50),
        p.optionalInt("dynamodb.maxRetries", 0, 100),
        p.bool("dynamodb.create", false),
        read, write);
  }

  /** Reads one kind of value each, with errors naming the property, value and expectation. */
  private record Reader(Properties properties) {

    String string(String name, String otherwise) throws DBException {
      String value = properties.getProperty(name, "").trim();
      return value.isEmpty() ? otherwise : value;
    }

    String required(String name, String expected) throws DBException {
      String value = string(name, "");
      if (value.isEmpty()) {
        throw invalid(name, expected);
      }
      return value;
    }

    boolean bool(String name, boolean otherwise) throws DBException {
      String value = string(name, Boolean.toString(otherwise)).toLowerCase();
      if (!value.equals("true") && !value.equals("false")) {
        throw invalid(name, "true or false");
      }
      return Boolean.parseBoolean(value);
    }

    OptionalInt optionalInt(String name, int min, int max) throws DBException {
      String value = string(name, "");
      if (value.isEmpty()) {
        return OptionalInt.empty();
      }
      try {
        int number = Integer.parseInt(value);
        if (number >= min && number <= max) {
          return OptionalInt.of(number);
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw invalid(name, "a whole number, " + min + ".." + max);
    }

    Optional<URI> endpoint(String name) throws DBException {
      String value = string(name, "");
      if (value.isEmpty()) {
        return Optional.empty();
      }
      try {
        URI uri = new URI(value);
        if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
            && uri.getHost() != null) {
          return Optional.of(uri);
        }
      } catch (URISyntaxException e) {
        // reported below
      }
      throw invalid(name, "a URL with scheme http or https and a host, like"
          + " http://127.0.0.1:8000");
    }

    Optional<String[]> credentials() throws DBException {
      String accessKey = string("dynamodb.accessKey", "");
      String secretKey = string("dynamodb.secretKey", "");
      if (!accessKey.isEmpty() || !secretKey.isEmpty()) {
        if (accessKey.isEmpty() || secretKey.isEmpty()) {
          throw invalid(accessKey.isEmpty() ? "dynamodb.accessKey" : "dynamodb.secretKey",
              "set together with the other key");
        }
        return Optional.of(new String[] {accessKey, secretKey});
      }
      String file = string("dynamodb.awsCredentialsFile", "");
      if (file.isEmpty()) {
        return Optional.empty();
      }
      Properties keys = new Properties();
      try (InputStream in = Files.newInputStream(Path.of(file))) {
        keys.load(in);
      } catch (IOException e) {
        throw new DBException("dynamodb.awsCredentialsFile: " + file
            + " (expected: a readable properties file with accessKey and secretKey): " + e);
      }
      String fileAccessKey = keys.getProperty("accessKey", "").trim();
      String fileSecretKey = keys.getProperty("secretKey", "").trim();
      if (fileAccessKey.isEmpty() || fileSecretKey.isEmpty()) {
        throw new DBException("dynamodb.awsCredentialsFile: " + file
            + " (expected: a properties file with accessKey and secretKey)");
      }
      return Optional.of(new String[] {fileAccessKey, fileSecretKey});
    }

    DBException invalid(String name, String expected) {
      String value = properties.getProperty(name);
      return new DBException(name + ": " + (value == null ? "(not set)" : value)
          + " (expected: " + expected + ")");
    }
  }
}
