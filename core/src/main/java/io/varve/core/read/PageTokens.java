package io.varve.core.read;

import io.varve.core.error.InvalidFieldException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encodes and checks page tokens. A token carries the cursor (last event returned), the number of
 * events returned so far and a fingerprint of the request it belongs to, and is signed with
 * HMAC-SHA256 under a key shared by all servers of a deployment. A token that was altered, was made
 * under another key, or belongs to another request (other namespace, series, interval, filters or
 * total limit) is refused with INVALID_ARGUMENT. Tokens are opaque to clients.
 */
public final class PageTokens {

  /** What a token says about where the next page starts. */
  public record Position(Cursor cursor, int returnedSoFar) {}

  private static final byte VERSION = 1;
  private static final int MAC_BYTES = 16;
  private static final String FIELD = "pageToken";
  private static final String EXPECTED = "a nextPageToken returned for this same request";

  private final SecretKeySpec key;

  public PageTokens(byte[] secret) {
    if (secret.length < 16) {
      throw new IllegalArgumentException("page token key shorter than 16 bytes");
    }
    this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
  }

  /** A fingerprint of the parts of a request that must not change between its pages. */
  public static byte[] fingerprint(String... parts) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        digest.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        digest.update(bytes);
      }
      return Arrays.copyOf(digest.digest(), 16);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public String encode(byte[] fingerprint, Position position) {
    byte[] id = position.cursor().eventId().getBytes(StandardCharsets.UTF_8);
    ByteBuffer body = ByteBuffer.allocate(8 + 4 + 4 + id.length);
    body.putLong(position.cursor().eventTimeMillis())
        .putInt(position.returnedSoFar())
        .putInt(id.length)
        .put(id);
    return seal(fingerprint, VERSION, body.array());
  }

  public Position decode(byte[] fingerprint, String token) {
    ByteBuffer body = ByteBuffer.wrap(open(fingerprint, VERSION, token));
    try {
      long time = body.getLong();
      int returned = body.getInt();
      int idLength = body.getInt();
      if (idLength != body.remaining() || returned < 0) {
        throw new InvalidFieldException(FIELD, token, EXPECTED);
      }
      byte[] id = new byte[idLength];
      body.get(id);
      return new Position(new Cursor(time, new String(id, StandardCharsets.UTF_8)), returned);
    } catch (java.nio.BufferUnderflowException e) {
      throw new InvalidFieldException(FIELD, token, EXPECTED);
    }
  }

  /**
   * A token carrying {@code payload}, signed together with the request's fingerprint; {@code kind}
   * tells the token's use apart (1 = read; others for other APIs), so that a token of one API is
   * refused by another.
   */
  public String seal(byte[] fingerprint, byte kind, byte[] payload) {
    byte[] body = new byte[1 + payload.length];
    body[0] = kind;
    System.arraycopy(payload, 0, body, 1, payload.length);
    byte[] mac = mac(fingerprint, body);
    byte[] token = Arrays.copyOf(body, body.length + MAC_BYTES);
    System.arraycopy(mac, 0, token, body.length, MAC_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
  }

  /**
   * The payload of a token made by {@link #seal} for this kind and fingerprint; INVALID_ARGUMENT
   * otherwise.
   */
  public byte[] open(byte[] fingerprint, byte kind, String token) {
    return open(fingerprint, kind, token, FIELD);
  }

  /** As {@link #open(byte[], byte, String)}, errors naming {@code field}. */
  public byte[] open(byte[] fingerprint, byte kind, String token, String field) {
    byte[] raw;
    try {
      raw = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw new InvalidFieldException(field, token, EXPECTED + "; this is not a page token");
    }
    if (raw.length < 1 + MAC_BYTES || raw[0] != kind) {
      throw new InvalidFieldException(field, token, EXPECTED + "; this is not a page token");
    }
    byte[] body = Arrays.copyOf(raw, raw.length - MAC_BYTES);
    byte[] mac = Arrays.copyOfRange(raw, raw.length - MAC_BYTES, raw.length);
    if (!MessageDigest.isEqual(mac, Arrays.copyOf(mac(fingerprint, body), MAC_BYTES))) {
      throw new InvalidFieldException(
          field, token, EXPECTED + "; this token was altered or belongs to another request");
    }
    return Arrays.copyOfRange(body, 1, body.length);
  }

  private byte[] mac(byte[] fingerprint, byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update(fingerprint);
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
