package io.varve.server.json;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The JSON form of a message whose {@code bytes} fields may be large (KeyValue values of up to 64
 * MiB), written in UTF-8 with those fields encoded in base64 straight into the output, a piece at a
 * time. The printer of the proto3 mapping turns a {@code bytes} field into a copy of its bytes, a
 * base64 string built and copied, and a text of the whole document grown by doubling and copied
 * again: about seven times a value at once, which is what ran a server out of heap under a few
 * concurrent reads of one large value. Here each large field is swapped for a short placeholder,
 * the rest is printed as usual (small), and the output is that text with each placeholder replaced
 * by its field's base64: the value itself plus the output, nothing in between.
 *
 * <p>A placeholder is {@value #PLACEHOLDER_BYTES} bytes, a random nonce of this call and the
 * field's number, so a value of the document cannot be mistaken for one; should one still appear
 * twice in the text, the document is printed the plain way. Thread-safe.
 */
final class LargeBytesJson {

  /** A {@code bytes} field at least this long is written in pieces rather than printed. */
  static final int LARGE_BYTES = 64 * 1024;

  private static final int PLACEHOLDER_BYTES = 12;

  /** Raw bytes encoded per step: a multiple of 3, so that no step pads. */
  private static final int STEP = 3 * 16 * 1024;

  private final Function<Message, String> printer;

  /**
   * @param printer the proto3 JSON printer of a whole message
   */
  LargeBytesJson(Function<Message, String> printer) {
    this.printer = printer;
  }

  /** The JSON of {@code message}, in UTF-8, in an array of exactly its length. */
  byte[] bytes(Message message) {
    Document doc = document(message);
    byte[] out = new byte[Math.toIntExact(doc.length())];
    doc.writeTo(new ArraySink(out));
    return out;
  }

  /** Writes the JSON of {@code message}, in UTF-8, to {@code out}. */
  void write(Message message, OutputStream out) throws IOException {
    try {
      document(message).writeTo(out);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private Document document(Message message) {
    if (message.getSerializedSize() < LARGE_BYTES) {
      return Document.plain(printer.apply(message));
    }
    byte[] nonce = new byte[PLACEHOLDER_BYTES - 4];
    ThreadLocalRandom.current().nextBytes(nonce);
    List<ByteString> large = new ArrayList<>();
    Message swapped = swap(message, nonce, large);
    if (large.isEmpty()) {
      return Document.plain(printer.apply(message));
    }
    String text = printer.apply(swapped);
    int[] at = new int[large.size()];
    Integer[] order = new Integer[large.size()];
    int markLength = 0;
    for (int i = 0; i < large.size(); i++) {
      String mark = Base64.getEncoder().encodeToString(placeholder(nonce, i).toByteArray());
      markLength = mark.length();
      at[i] = text.indexOf(mark);
      if (at[i] < 0 || text.indexOf(mark, at[i] + mark.length()) >= 0) {
        // a value of the document held a placeholder's bytes: print the plain way
        return Document.plain(printer.apply(message));
      }
      order[i] = i;
    }
    Arrays.sort(order, java.util.Comparator.comparingInt(i -> at[i]));
    List<byte[]> pieces = new ArrayList<>(large.size() + 1);
    List<ByteString> values = new ArrayList<>(large.size());
    int from = 0;
    for (int i : order) {
      pieces.add(text.substring(from, at[i]).getBytes(StandardCharsets.UTF_8));
      values.add(large.get(i));
      from = at[i] + markLength;
    }
    pieces.add(text.substring(from).getBytes(StandardCharsets.UTF_8));
    return new Document(pieces, values);
  }

  /**
   * {@code m} with each large {@code bytes} field (in it or in its messages, repeated or not, map
   * values aside: the API has no large ones) replaced by a placeholder, their values added to
   * {@code large}, the placeholder of {@code large.get(i)} ending in {@code i}.
   */
  private static Message swap(Message m, byte[] nonce, List<ByteString> large) {
    if (m.getSerializedSize() < LARGE_BYTES) {
      return m;
    }
    Message.Builder b = null;
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      if (f.isMapField()) {
        continue;
      }
      if (f.isRepeated()) {
        List<?> values = (List<?>) e.getValue();
        for (int i = 0; i < values.size(); i++) {
          Object swapped = swapValue(f, values.get(i), nonce, large);
          if (swapped != values.get(i)) {
            b = b == null ? m.toBuilder() : b;
            b.setRepeatedField(f, i, swapped);
          }
        }
      } else {
        Object swapped = swapValue(f, e.getValue(), nonce, large);
        if (swapped != e.getValue()) {
          b = b == null ? m.toBuilder() : b;
          b.setField(f, swapped);
        }
      }
    }
    return b == null ? m : b.build();
  }

  private static Object swapValue(
      FieldDescriptor f, Object value, byte[] nonce, List<ByteString> large) {
    if (f.getJavaType() == FieldDescriptor.JavaType.BYTE_STRING
        && ((ByteString) value).size() >= LARGE_BYTES) {
      large.add((ByteString) value);
      return placeholder(nonce, large.size() - 1);
    }
    if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      return swap((Message) value, nonce, large);
    }
    return value;
  }

  private static ByteString placeholder(byte[] nonce, int index) {
    return ByteString.copyFrom(
        ByteBuffer.allocate(PLACEHOLDER_BYTES).put(nonce).putInt(index).flip());
  }

  /** The text around the large values, in UTF-8, and the values that go between its pieces. */
  private record Document(List<byte[]> pieces, List<ByteString> values) {

    static Document plain(String text) {
      return new Document(List.of(text.getBytes(StandardCharsets.UTF_8)), List.of());
    }

    long length() {
      long n = 0;
      for (byte[] piece : pieces) {
        n += piece.length;
      }
      for (ByteString v : values) {
        n += 4L * ((v.size() + 2) / 3);
      }
      return n;
    }

    void writeTo(OutputStream out) {
      try {
        for (int i = 0; i < pieces.size(); i++) {
          out.write(pieces.get(i));
          if (i < values.size()) {
            base64(values.get(i), out);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static void base64(ByteString value, OutputStream out) throws IOException {
      Base64.Encoder encoder = Base64.getEncoder();
      byte[] raw = new byte[STEP];
      byte[] encoded = new byte[4 * STEP / 3];
      for (int at = 0; at < value.size(); at += STEP) {
        int n = Math.min(STEP, value.size() - at);
        value.copyTo(raw, at, 0, n);
        byte[] input = n == STEP ? raw : Arrays.copyOf(raw, n);
        out.write(encoded, 0, encoder.encode(input, encoded));
      }
    }
  }

  /** Writes into an array of the exact length, from its start. */
  private static final class ArraySink extends OutputStream {
    private final byte[] out;
    private int at;

    ArraySink(byte[] out) {
      this.out = out;
    }

    @Override
    public void write(int b) {
      out[at++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      System.arraycopy(b, off, out, at, len);
      at += len;
    }
  }
}
