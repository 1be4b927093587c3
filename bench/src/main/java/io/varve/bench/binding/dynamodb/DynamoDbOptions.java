package io.varve.bench.binding.dynamodb;

import io.varve.bench.binding.BindingOptions;
import io.varve.options.Option;
import io.varve.options.Options;
import io.varve.options.Types;
import java.net.URI;

/**
 * The properties of the {@code dynamodb} binding. Names follow YCSB's own DynamoDB binding where it
 * had one, so its property files keep working.
 */
public final class DynamoDbOptions {

  private static final Options.Builder OPTIONS = Options.builder();

  public static final Option<URI> ENDPOINT =
      OPTIONS
          .option("dynamodb.endpoint", BindingOptions.HTTP_URL)
          .defaultDoc("(none: the region's DynamoDB)")
          .doc("Endpoint override: DynamoDB Local, Alternator.");
  public static final Option<String> REGION =
      OPTIONS
          .option("dynamodb.region", Types.string())
          .defaultValue("us-east-1")
          .doc("Region to sign requests for (and to reach without an endpoint).");
  public static final Option<String> TABLE =
      OPTIONS.option("table", Types.string()).defaultValue("usertable").doc("YCSB's table name.");
  public static final Option<String> PRIMARY_KEY =
      OPTIONS
          .option("dynamodb.primaryKey", Types.string())
          .defaultValue("y_id")
          .doc(
              "Attribute holding YCSB's key, a string. YCSB's binding required it; here it has a default.");
  public static final Option<String> PRIMARY_KEY_TYPE =
      OPTIONS
          .option("dynamodb.primaryKeyType", Types.oneOfIgnoringCase("HASH", "HASH_AND_RANGE"))
          .defaultValue("HASH")
          .doc(
              "`HASH_AND_RANGE`: every item gets the hash key `dynamodb.hashKeyName` = `dynamodb.hashKeyValue` and"
                  + " YCSB's key becomes the range key, so that all items share one partition (the single-hot-partition"
                  + " scenario).");
  public static final Option<String> HASH_KEY_NAME =
      OPTIONS
          .option("dynamodb.hashKeyName", Types.string())
          .defaultDoc("(required with `HASH_AND_RANGE`)")
          .doc("The hash key attribute in that mode.");
  public static final Option<String> HASH_KEY_VALUE =
      OPTIONS
          .option("dynamodb.hashKeyValue", Types.string())
          .defaultValue("YCSB_0")
          .doc("Its value.");
  public static final Option<Boolean> CONSISTENT_READS =
      OPTIONS
          .option("dynamodb.consistentReads", Types.bool())
          .defaultValue(false)
          .doc("`true`: strongly consistent GetItem and Scan.");
  public static final Option<String> ACCESS_KEY =
      OPTIONS
          .option("dynamodb.accessKey", Types.string())
          .secret()
          .doc("Static credentials, with `dynamodb.secretKey`: both or neither.");
  public static final Option<String> SECRET_KEY =
      OPTIONS
          .option("dynamodb.secretKey", Types.string())
          .secret()
          .doc("The secret key of those credentials.");
  public static final Option<String> CREDENTIALS_FILE =
      OPTIONS
          .option("dynamodb.awsCredentialsFile", Types.string())
          .doc(
              "YCSB's form of static credentials: a properties file with `accessKey` and `secretKey`.");
  public static final Option<Integer> CONNECT_MAX =
      OPTIONS
          .option("dynamodb.connectMax", Types.integer(1, 10_000))
          .alias("dynamodb.maxConnections")
          .defaultValue(50)
          .doc("HTTP connections in the pool shared by all threads.");
  public static final Option<Integer> MAX_RETRIES =
      OPTIONS
          .option("dynamodb.maxRetries", Types.integer(0, 100))
          .defaultDoc("the SDK's: 8")
          .doc(
              "Retries per operation. The SDK's default strategy for DynamoDB makes up to 9 attempts, backs off from"
                  + " 25 ms (from 500 ms after a throttle) and has a client-side circuit breaker. `0` turns retries off.");
  public static final Option<Boolean> CREATE =
      OPTIONS
          .option("dynamodb.create", Types.bool())
          .defaultValue(false)
          .doc(
              "`true`: create the table if it does not exist (hash key, and range key in `HASH_AND_RANGE`), and wait"
                  + " until it is ACTIVE. Created once per loader JVM however many threads start; an existing table is"
                  + " used as it is.");
  public static final Option<Integer> READ_CAPACITY_UNITS =
      OPTIONS
          .option("dynamodb.readCapacityUnits", Types.integer(1, 1_000_000))
          .defaultDoc("(on demand)")
          .doc(
              "With `dynamodb.writeCapacityUnits`, a created table is PROVISIONED with them; without both, it is"
                  + " PAY_PER_REQUEST.");
  public static final Option<Integer> WRITE_CAPACITY_UNITS =
      OPTIONS
          .option("dynamodb.writeCapacityUnits", Types.integer(1, 1_000_000))
          .defaultDoc("(on demand)")
          .doc(
              "Write capacity of a PROVISIONED table, set together with `dynamodb.readCapacityUnits`.");

  public static final Option<Boolean> MODEL_CAPACITY =
      OPTIONS
          .option("dynamodb.modelCapacity", Types.bool())
          .defaultValue(false)
          .doc(
              "`true`: the client throttles itself as a table provisioned with `dynamodb.readCapacityUnits` and"
                  + " `dynamodb.writeCapacityUnits` would be (a token bucket per table and kind, fed by the units"
                  + " DynamoDB reports consumed): an attempt made while a bucket is in debt fails with"
                  + " ProvisionedThroughputExceededException before it is sent, and the SDK retries it as it would a"
                  + " real throttle. For DynamoDB Local, which never throttles.");
  public static final Option<Integer> BURST_SECONDS =
      OPTIONS
          .option("dynamodb.burstSeconds", Types.integer(1, 300))
          .defaultValue(1)
          .doc(
              "Seconds of unused capacity the modelled buckets bank (DynamoDB banks up to 300): 1 keeps a run of a"
                  + " few minutes at the provisioned rate instead of its burst.");

  public static final Options ALL = OPTIONS.build();

  private DynamoDbOptions() {}
}
