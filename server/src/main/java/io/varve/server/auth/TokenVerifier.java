package io.varve.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;

/**
 * Finds the grant of a presented token. Compares SHA-256 digests with every configured token,
 * without stopping at a match, so the time taken says nothing about how much of a secret was
 * guessed right, nor about its length. Thread-safe.
 */
public final class TokenVerifier {

  private record Entry(byte[] digest, TokenGrant grant) {}

  private final List<Entry> entries;

  public TokenVerifier(List<TokenGrant> tokens) {
    this.entries = tokens.stream().map(t -> new Entry(digest(t.secret()), t)).toList();
  }

  /** The grant of {@code presented}, or empty when no configured token is equal to it. */
  public Optional<TokenGrant> verify(String presented) {
    if (presented == null) {
      return Optional.empty();
    }
    byte[] digest = digest(presented);
    TokenGrant found = null;
    for (Entry entry : entries) {
      if (MessageDigest.isEqual(entry.digest(), digest) && found == null) {
        found = entry.grant();
      }
    }
    return Optional.ofNullable(found);
  }

  private static byte[] digest(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
