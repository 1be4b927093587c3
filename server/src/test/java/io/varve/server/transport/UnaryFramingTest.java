package io.varve.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One unary body, however its bytes are split into pieces: exactly one complete message within the
 * limit, or a refusal naming what is wrong.
 */
class UnaryFramingTest {

  static final int LIMIT = 16;

  /**
   * Feeds {@code body} in two pieces split at {@code split}, then ends it; the refusal's kind and
   * message, or {@code OK}.
   */
  static String outcome(byte[] body, int split) {
    UnaryFraming framing = new UnaryFraming(LIMIT, "the test's limit");
    try {
      framing.read(Arrays.copyOfRange(body, 0, split));
      framing.read(Arrays.copyOfRange(body, split, body.length));
      framing.end();
      return "OK";
    } catch (VarveException e) {
      assertThat(e instanceof InvalidFieldException f ? f.field() : "body").isEqualTo("body");
      return e.kind() + " " + e.getMessage();
    }
  }

  @ParameterizedTest(name = "[{index}] {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "00 00000003 616263 | OK",
        "00 00000000 | OK",
        "01 00000002 1f8b | OK",
        "00 00000010 00000000000000000000000000000000 | OK",
        "'' | INVALID_ARGUMENT body: no message (expected: exactly one message on a unary call)",
        "00 | INVALID_ARGUMENT body: incomplete message: the request ended 1 bytes into the 5-byte"
            + " prefix (expected: one complete length-prefixed message)",
        "00 000000 | INVALID_ARGUMENT body: incomplete message: the request ended 4 bytes into the"
            + " 5-byte prefix (expected: one complete length-prefixed message)",
        "00 00000003 | INVALID_ARGUMENT body: incomplete message: its length prefix declares 3 bytes,"
            + " the request ended after 0 (expected: one complete length-prefixed message)",
        "00 00000003 6162 | INVALID_ARGUMENT body: incomplete message: its length prefix declares 3"
            + " bytes, the request ended after 2 (expected: one complete length-prefixed message)",
        "00 00000001 61 00 | INVALID_ARGUMENT body: a second message at byte 6 (expected: exactly one"
            + " message on a unary call)",
        "00 00000000 00 00000000 | INVALID_ARGUMENT body: a second message at byte 5 (expected:"
            + " exactly one message on a unary call)",
        "02 00000000 | INVALID_ARGUMENT body: message flags 0x02 (expected: 0x00, or 0x01 for a"
            + " compressed message)",
        "80 00000000 | INVALID_ARGUMENT body: message flags 0x80 (expected: 0x00, or 0x01 for a"
            + " compressed message)",
        "00 00000011 | RESOURCE_EXHAUSTED body: a message of 17 bytes (expected: at most 16 bytes,"
            + " the test's limit)",
        "00 ffffffff 00 | RESOURCE_EXHAUSTED body: a message of 4294967295 bytes (expected: at most"
            + " 16 bytes, the test's limit)",
        "00 80000000 | RESOURCE_EXHAUSTED body: a message of 2147483648 bytes (expected: at most 16"
            + " bytes, the test's limit)"
      })
  void a_body_is_taken_or_refused_wherever_its_pieces_are_split(String hex, String expected) {
    byte[] body = HexFormat.of().parseHex(hex.replace(" ", ""));

    for (int split = 0; split <= body.length; split++) {
      assertThat(outcome(body, split)).as("split at " + split).isEqualTo(expected);
    }
  }

  @ParameterizedTest(name = "[{index}] {0} bytes")
  @CsvSource({"1", "4096", "65536"})
  void a_large_message_in_many_pieces_is_taken(int size) {
    UnaryFraming framing = new UnaryFraming(size, "the test's limit");
    byte[] body = ByteBuffer.allocate(5 + size).put((byte) 0).putInt(size).array();

    assertThatCode(
            () -> {
              for (int i = 0; i < body.length; i += 7) {
                framing.read(Arrays.copyOfRange(body, i, Math.min(i + 7, body.length)));
              }
              framing.end();
            })
        .doesNotThrowAnyException();
  }
}
