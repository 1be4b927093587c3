package io.varve.verify.fuzz;

import com.google.protobuf.Message;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * One generated request, as sent.
 *
 * @param rpc the RPC it is addressed to ({@code WriteEventRecordsSync})
 * @param kind what the generator meant to exercise
 * @param description the mutation or limit in words, for the report
 * @param transport JSON ({@code POST <path>}) or gRPC
 * @param path the HTTP path (JSON only; normally {@code /v1/<rpc>})
 * @param method the HTTP method (JSON only)
 * @param headers extra HTTP headers, including Content-Type when the case sets one (JSON only)
 * @param body the bytes sent: JSON text, or the protobuf message for gRPC
 * @param intended the request as the server should understand it when it accepts it, or {@code
 *     null} when it should be refused or cannot be told; what the data model is updated from when a
 *     write is acknowledged
 * @param origin the valid request the case was derived from, or {@code null}: when the case is
 *     refused, nothing of it may have been stored
 */
public record FuzzCase(
    String rpc,
    Kind kind,
    String description,
    Transport transport,
    String path,
    String method,
    Map<String, String> headers,
    byte[] body,
    Message intended,
    Message origin) {

  /** What a case exercises. */
  public enum Kind {
    VALID,
    MUTATED,
    HOSTILE_SIZE,
    GARBAGE,
    HEADERS,
    SEQUENCE
  }

  /** The wire a case is sent over. */
  public enum Transport {
    JSON,
    GRPC
  }

  /** The request in a form that can be sent again: JSON as text (cut when long), gRPC as base64. */
  public String reproduction(int maxChars) {
    String text =
        transport == Transport.JSON
            ? new String(body, StandardCharsets.UTF_8)
            : Base64.getEncoder().encodeToString(body);
    String shown =
        text.length() > maxChars
            ? text.substring(0, maxChars) + "...(" + text.length() + " chars)"
            : text;
    return transport == Transport.JSON
        ? method + " " + path + " " + headers + " " + body.length + " bytes: " + shown
        : "gRPC "
            + ApiGrammar.RPCS.getOrDefault(rpc, "?")
            + "/"
            + rpc
            + " "
            + body.length
            + " bytes (base64): "
            + shown;
  }
}
