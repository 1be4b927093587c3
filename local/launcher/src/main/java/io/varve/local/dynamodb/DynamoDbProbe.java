package io.varve.local.dynamodb;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Asks a DynamoDB API endpoint to list its tables, with the JDK's HTTP client. DynamoDB Local
 * checks that a request carries an {@code Authorization} header naming an access key but not its
 * signature, so a fixed, unsigned header is enough.
 */
final class DynamoDbProbe {

  static final String LIST_TABLES = "DynamoDB_20120810.ListTables";
  static final String AUTHORIZATION =
      "AWS4-HMAC-SHA256"
          + " Credential=varve/20200101/us-east-1/dynamodb/aws4_request,"
          + " SignedHeaders=content-type;host;x-amz-target, Signature=0";

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .build();

  private DynamoDbProbe() {}

  /** The response to a {@code ListTables} request; throws if the server cannot be reached. */
  static HttpResponse<String> listTables(URI endpoint, Duration timeout)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(endpoint)
            .timeout(timeout)
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Target", LIST_TABLES)
            .header("Authorization", AUTHORIZATION)
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** Whether the endpoint answers {@code ListTables} with 200 and a list of table names. */
  static boolean answersListTables(URI endpoint, Duration timeout) {
    try {
      HttpResponse<String> response = listTables(endpoint, timeout);
      return response.statusCode() == 200 && response.body().contains("\"TableNames\"");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
