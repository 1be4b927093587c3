package io.varve.bench.binding.dynamodb;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Counts every HTTP attempt that the service answered with a throttling error, whether the SDK then
 * retried it or gave up. The SDK hides retried attempts from the caller, so an operation that
 * succeeded on its third attempt after two throttles counts 2 here and OK in YCSB's results.
 *
 * <p>It reads the error code of each failed attempt from the {@code X-Amzn-ErrorType} header or,
 * when absent, the {@code __type} of the (small) JSON error body, which it then hands on unread.
 */
final class ThrottledAttempts implements ExecutionInterceptor {

  /** The error codes of the DynamoDB API that mean "slow down", with HTTP 429. */
  static final List<String> THROTTLING_CODES =
      List.of(
          "ProvisionedThroughputExceededException",
          "ThrottlingException",
          "RequestLimitExceeded",
          "Throttling",
          "TooManyRequestsException");

  private static final LongAdder COUNT = new LongAdder();

  /** An attempt the client's capacity model refused ({@link CapacityModel}). */
  static void countModelled() {
    COUNT.increment();
  }

  /** Throttled attempts seen by every client of this JVM since it started. */
  static long count() {
    return COUNT.sum();
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    SdkHttpResponse response = context.httpResponse();
    Optional<InputStream> body = context.responseBody();
    if (response.isSuccessful()) {
      return body;
    }
    Optional<String> header = response.firstMatchingHeader("X-Amzn-ErrorType");
    if (header.isPresent() || body.isEmpty()) {
      if (isThrottling(response.statusCode(), header.orElse(""))) {
        COUNT.increment();
      }
      return body;
    }
    byte[] bytes = readAll(body.get());
    if (isThrottling(response.statusCode(), new String(bytes, StandardCharsets.UTF_8))) {
      COUNT.increment();
    }
    return Optional.of(new ByteArrayInputStream(bytes));
  }

  /** Whether an error response, by its status and its error type header or body, is a throttle. */
  static boolean isThrottling(int status, String errorTypeOrBody) {
    return status == 429
        || THROTTLING_CODES.stream()
            .anyMatch(code -> errorTypeOrBody.matches("(?s).*(^|[#\"])" + code + "([:\"].*|$)"));
  }

  private static byte[] readAll(InputStream in) {
    try (in) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read an error response of DynamoDB", e);
    }
  }
}
