package io.varve.verify.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;

/**
 * The page tokens a run was given, to send one with another request: the server binds a token to
 * the request it was issued for and must refuse it elsewhere with a 4xx. Over JSON only (a gRPC
 * case keeps the placeholder, an invalid token of its own).
 */
final class PageTokens {

  private static final java.util.Set<String> PAGED =
      java.util.Set.of("GetItems", "ScanItems", "ReadEventRecords", "SearchEventRecords");

  /** Larger answers are not parsed for their token: a run has plenty of small ones. */
  private static final int MAX_PARSED = 1 << 20;

  private String last = "";

  /** The case with {@link KvGrammar#ANOTHER_REQUESTS_TOKEN} replaced by the last token seen. */
  FuzzCase fill(FuzzCase c) {
    if (c.transport() != FuzzCase.Transport.JSON || last.isEmpty()) {
      return c;
    }
    String body = new String(c.body(), StandardCharsets.UTF_8);
    if (!body.contains(KvGrammar.ANOTHER_REQUESTS_TOKEN)) {
      return c;
    }
    byte[] filled =
        body.replace(KvGrammar.ANOTHER_REQUESTS_TOKEN, last).getBytes(StandardCharsets.UTF_8);
    return new FuzzCase(
        c.rpc(),
        c.kind(),
        c.description() + " (page token of another request)",
        c.transport(),
        c.path(),
        c.method(),
        c.headers(),
        filled,
        null,
        c.origin());
  }

  /** Keeps the {@code nextPageToken} of an accepted JSON answer of a paged read. */
  void remember(FuzzCase c, Outcome o) {
    if (c.transport() != FuzzCase.Transport.JSON
        || !o.accepted()
        || !PAGED.contains(c.rpc())
        || o.body().length > MAX_PARSED) {
      return;
    }
    try {
      JsonNode token = JsonMutations.JSON.readTree(o.body()).path("nextPageToken");
      if (token.isTextual() && !token.asText().isEmpty()) {
        last = token.asText();
      }
    } catch (java.io.IOException | RuntimeException e) {
      // not JSON: nothing to keep
    }
  }
}
