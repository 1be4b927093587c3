package io.varve.bench.binding.dynamodb;

import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * The one {@link DynamoDbClient} that all binding instances (YCSB's threads) of a JVM share, built
 * by the first {@link #acquire} from its settings and closed by the last {@link #release}.
 */
final class SharedClient {

  /** Given to DynamoDB Local or Alternator when no credentials are configured: any will do. */
  static final AwsBasicCredentials DUMMY = AwsBasicCredentials.create("varve", "varve");

  private static DynamoDbClient client;
  private static int references;

  private SharedClient() {}

  static synchronized DynamoDbClient acquire(DynamoDbSettings settings) {
    if (references++ == 0) {
      client = build(settings);
    }
    return client;
  }

  static synchronized void release() {
    if (--references == 0) {
      client.close();
      client = null;
    }
  }

  @SuppressWarnings("deprecation") // ApacheHttpClient (HttpClient 4) is what bench/pom.xml ships.
  private static DynamoDbClient build(DynamoDbSettings settings) {
    ClientOverrideConfiguration.Builder overrides =
        ClientOverrideConfiguration.builder()
            .addExecutionInterceptor(new ThrottledAttempts())
            .addExecutionInterceptor(new CapacityModel(settings));
    settings
        .maxRetries()
        .ifPresent(
            retries -> overrides.retryStrategy(strategy -> strategy.maxAttempts(retries + 1)));
    DynamoDbClientBuilder builder =
        DynamoDbClient.builder()
            .region(Region.of(settings.region()))
            .credentialsProvider(credentials(settings))
            .overrideConfiguration(overrides.build())
            .httpClientBuilder(
                ApacheHttpClient.builder()
                    .maxConnections(settings.maxConnections())
                    .tcpKeepAlive(true)
                    .connectionTimeout(Duration.ofSeconds(5)));
    settings.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }

  private static AwsCredentialsProvider credentials(DynamoDbSettings settings) {
    if (settings.credentials().isPresent()) {
      String[] keys = settings.credentials().get();
      return StaticCredentialsProvider.create(AwsBasicCredentials.create(keys[0], keys[1]));
    }
    return settings.endpoint().isPresent()
        ? StaticCredentialsProvider.create(DUMMY)
        : DefaultCredentialsProvider.builder().build();
  }
}
