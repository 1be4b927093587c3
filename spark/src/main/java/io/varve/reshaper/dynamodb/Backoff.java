package io.varve.reshaper.dynamodb;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.apache.spark.util.LongAccumulator;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Calls DynamoDB again after a throttle (HTTP 429 or 400 with a throttling error code), backing off
 * exponentially with jitter from 50 ms to 10 s, at most {@value #MAX_THROTTLES} times in a row, and
 * counts every throttle in a Spark accumulator; calls again after a failure to reach the service or
 * a 5xx at most {@code retries} times. Anything else fails at once.
 */
public final class Backoff {
  static final int MAX_THROTTLES = 20;
  private static final long FIRST_MILLIS = 50;
  private static final long MAX_MILLIS = 10_000;
  private final int retries;
  private final LongAccumulator throttled;

  /**
   * @param retries {@code failures.retries}
   * @param throttled counts throttles, or null
   */
  public Backoff(int retries, LongAccumulator throttled) {
    this.retries = retries;
    this.throttled = throttled;
  }

  /** The result of {@code call}, called again as the class says. */
  public <T> T call(Supplier<T> call) {
    int throttles = 0;
    int failures = 0;
    while (true) {
      try {
        return call.get();
      } catch (DynamoDbException e) {
        if (isThrottle(e)) {
          if (++throttles > MAX_THROTTLES) {
            throw e;
          }
          throttle(throttles);
        } else if (e.statusCode() >= 500 && failures++ < retries) {
          pause(failures);
        } else {
          throw e;
        }
      } catch (SdkClientException e) {
        if (failures++ >= retries) {
          throw e;
        }
        pause(failures);
      }
    }
  }

  /** Counts a throttle that a call reported in its answer (unprocessed items) and backs off. */
  public void throttle(int inARow) {
    if (throttled != null) {
      throttled.add(1);
    }
    pause(inARow);
  }

  static boolean isThrottle(DynamoDbException e) {
    String code = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode();
    return e.statusCode() == 429
        || code != null
            && (code.contains("ProvisionedThroughputExceeded")
                || code.contains("Throttling")
                || code.contains("RequestLimitExceeded"));
  }

  private static void pause(int attempt) {
    long cap = Math.min(MAX_MILLIS, FIRST_MILLIS << Math.min(attempt - 1, 20));
    try {
      Thread.sleep(cap / 2 + ThreadLocalRandom.current().nextLong(cap / 2 + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while backing off", e);
    }
  }
}
