package io.varve.reshaper.dynamodb;

import io.varve.reshaper.config.DynamoDbSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClientBuilder;

/**
 * One synchronous DynamoDB client per side's settings and JVM, shared by the tasks of an executor
 * (the client is thread-safe) and kept for the JVM's life. The SDK does not retry: {@link Backoff}
 * does, so that throttles are counted and backed off as the job decides.
 */
public final class DynamoDbClients {
  private static final Map<DynamoDbSettings, DynamoDbClient> CLIENTS = new ConcurrentHashMap<>();

  private DynamoDbClients() {}

  /** The client of {@code settings}. */
  public static DynamoDbClient of(DynamoDbSettings settings) {
    return CLIENTS.computeIfAbsent(settings, DynamoDbClients::build);
  }

  private static DynamoDbClient build(DynamoDbSettings settings) {
    DynamoDbClientBuilder builder =
        DynamoDbClient.builder()
            .region(Region.of(settings.region()))
            .credentialsProvider(credentials(settings))
            .overrideConfiguration(
                ClientOverrideConfiguration.builder()
                    .retryStrategy(strategy -> strategy.maxAttempts(1))
                    .apiCallAttemptTimeout(Duration.ofSeconds(30))
                    .build())
            .httpClientBuilder(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(5))
                    .socketTimeout(Duration.ofSeconds(30)));
    if (settings.endpoint() != null) {
      builder.endpointOverride(settings.endpoint());
    }
    return builder.build();
  }

  private static AwsCredentialsProvider credentials(DynamoDbSettings settings) {
    return settings.accessKey() != null
        ? StaticCredentialsProvider.create(
            AwsBasicCredentials.create(settings.accessKey(), settings.secretKey()))
        : DefaultCredentialsProvider.builder().build();
  }
}
