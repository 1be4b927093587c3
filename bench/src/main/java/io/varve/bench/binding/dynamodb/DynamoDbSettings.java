package io.varve.bench.binding.dynamodb;

import io.varve.bench.binding.BindingOptions;
import io.varve.options.Option;
import io.varve.options.OptionValues;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import site.ycsb.DBException;

/**
 * The {@code dynamodb} binding's properties ({@link DynamoDbOptions}), read and checked once;
 * docs/bench-dynamodb.md lists them all with their defaults.
 *
 * @param endpoint {@code dynamodb.endpoint}: an endpoint override (DynamoDB Local, Alternator)
 * @param region {@code dynamodb.region}, default {@code us-east-1}
 * @param table YCSB's {@code table}, default {@code usertable}
 * @param primaryKey {@code dynamodb.primaryKey}: the attribute holding YCSB's key
 * @param hashKey {@code dynamodb.hashKeyName} when {@code dynamodb.primaryKeyType} is {@code
 *     HASH_AND_RANGE}: every item then has this hash key set to {@code hashKeyValue}, and YCSB's
 *     key is the range key, so that all items share one partition
 * @param hashKeyValue {@code dynamodb.hashKeyValue}, default {@code YCSB_0}
 * @param consistentReads {@code dynamodb.consistentReads}: strongly consistent reads
 * @param credentials static credentials from {@code dynamodb.accessKey}/{@code secretKey} or {@code
 *     dynamodb.awsCredentialsFile}; empty = the SDK's default chain, or fixed dummy credentials
 *     when an endpoint is given
 * @param maxConnections {@code dynamodb.connectMax} (or {@code dynamodb.maxConnections})
 * @param maxRetries {@code dynamodb.maxRetries}; empty = the SDK's default for DynamoDB
 * @param create {@code dynamodb.create}: create the table if it does not exist
 * @param readCapacityUnits {@code dynamodb.readCapacityUnits}; with {@code writeCapacityUnits}, a
 *     created table is provisioned, else on demand (PAY_PER_REQUEST)
 * @param writeCapacityUnits {@code dynamodb.writeCapacityUnits}
 * @param modelCapacity {@code dynamodb.modelCapacity}: the client throttles itself as the
 *     provisioned capacity would ({@link CapacityModel})
 * @param burstSeconds {@code dynamodb.burstSeconds}: the seconds of capacity the model banks
 */
record DynamoDbSettings(
    Optional<URI> endpoint,
    String region,
    String table,
    String primaryKey,
    Optional<String> hashKey,
    String hashKeyValue,
    boolean consistentReads,
    Optional<String[]> credentials,
    int maxConnections,
    OptionalInt maxRetries,
    boolean create,
    OptionalInt readCapacityUnits,
    OptionalInt writeCapacityUnits,
    boolean modelCapacity,
    int burstSeconds) {

  static DynamoDbSettings from(Properties properties) throws DBException {
    OptionValues p = BindingOptions.read(DynamoDbOptions.ALL, properties);
    Optional<String> hashKey =
        p.get(DynamoDbOptions.PRIMARY_KEY_TYPE).equals("HASH")
            ? Optional.empty()
            : Optional.of(
                p.optional(DynamoDbOptions.HASH_KEY_NAME)
                    .orElseThrow(
                        () ->
                            invalid(
                                p,
                                DynamoDbOptions.HASH_KEY_NAME,
                                "an attribute name, required with dynamodb.primaryKeyType=HASH_AND_RANGE")));
    OptionalInt read = optionalInt(p, DynamoDbOptions.READ_CAPACITY_UNITS);
    OptionalInt write = optionalInt(p, DynamoDbOptions.WRITE_CAPACITY_UNITS);
    if (read.isPresent() != write.isPresent()) {
      throw invalid(
          p,
          read.isPresent()
              ? DynamoDbOptions.WRITE_CAPACITY_UNITS
              : DynamoDbOptions.READ_CAPACITY_UNITS,
          "set together with the other capacity property");
    }
    boolean model = p.get(DynamoDbOptions.MODEL_CAPACITY);
    if (model && read.isEmpty()) {
      throw invalid(
          p,
          DynamoDbOptions.MODEL_CAPACITY,
          "dynamodb.readCapacityUnits and dynamodb.writeCapacityUnits set too: the capacity to model");
    }
    return new DynamoDbSettings(
        p.optional(DynamoDbOptions.ENDPOINT),
        p.get(DynamoDbOptions.REGION),
        p.get(DynamoDbOptions.TABLE),
        p.get(DynamoDbOptions.PRIMARY_KEY),
        hashKey,
        p.get(DynamoDbOptions.HASH_KEY_VALUE),
        p.get(DynamoDbOptions.CONSISTENT_READS),
        credentials(p),
        p.get(DynamoDbOptions.CONNECT_MAX),
        optionalInt(p, DynamoDbOptions.MAX_RETRIES),
        p.get(DynamoDbOptions.CREATE),
        read,
        write,
        model,
        p.get(DynamoDbOptions.BURST_SECONDS));
  }

  private static OptionalInt optionalInt(OptionValues p, Option<Integer> option) {
    return p.optional(option).map(OptionalInt::of).orElse(OptionalInt.empty());
  }

  private static Optional<String[]> credentials(OptionValues p) throws DBException {
    Optional<String> accessKey = p.optional(DynamoDbOptions.ACCESS_KEY);
    Optional<String> secretKey = p.optional(DynamoDbOptions.SECRET_KEY);
    if (accessKey.isPresent() || secretKey.isPresent()) {
      if (accessKey.isEmpty() || secretKey.isEmpty()) {
        throw invalid(
            p,
            accessKey.isEmpty() ? DynamoDbOptions.ACCESS_KEY : DynamoDbOptions.SECRET_KEY,
            "set together with the other key");
      }
      return Optional.of(new String[] {accessKey.get(), secretKey.get()});
    }
    Optional<String> file = p.optional(DynamoDbOptions.CREDENTIALS_FILE);
    if (file.isEmpty()) {
      return Optional.empty();
    }
    Properties keys = new Properties();
    try (InputStream in = Files.newInputStream(Path.of(file.get()))) {
      keys.load(in);
    } catch (IOException e) {
      throw new DBException(
          "dynamodb.awsCredentialsFile: "
              + file.get()
              + " (expected: a readable properties file with accessKey and secretKey): "
              + e);
    }
    String fileAccessKey = keys.getProperty("accessKey", "").trim();
    String fileSecretKey = keys.getProperty("secretKey", "").trim();
    if (fileAccessKey.isEmpty() || fileSecretKey.isEmpty()) {
      throw new DBException(
          "dynamodb.awsCredentialsFile: "
              + file.get()
              + " (expected: a properties file with accessKey and secretKey)");
    }
    return Optional.of(new String[] {fileAccessKey, fileSecretKey});
  }

  /** A value that the option's type allows but the other options do not; secrets are not shown. */
  private static DBException invalid(OptionValues p, Option<?> option, String expected) {
    String shown =
        p.optional(option)
            .map(v -> option.secret() ? "(a secret, not shown)" : v.toString())
            .orElse("(not set)");
    return new DBException(p.key(option) + ": " + shown + " (expected: " + expected + ")");
  }
}
