package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * One-field mutations of a valid request in protobuf form, for gRPC: a field set to a hostile value
 * of its own type (huge, empty, odd unicode, negative, extreme numbers, timestamps and durations
 * out of range or finer than milliseconds, a repeated element copied many times), an unknown field,
 * a field sent with the wrong wire type, or the encoding cut or damaged.
 */
final class ProtoMutations {

  record Mutation(int field, int variant, String kind) {}

  record Mutated(byte[] bytes, Message message, String description) {}

  static Arbitrary<Mutation> mutations() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 10_000),
            Arbitraries.integers().between(0, 10_000),
            Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.just("field value")),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("unknown field")),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("wrong wire type")),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("truncated")),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("damaged byte")),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("deep nesting"))))
        .as(Mutation::new);
  }

  private record Site(Message.Builder owner, FieldDescriptor field, int index, String path) {}

  static Mutated apply(Message request, Mutation m) {
    byte[] valid = request.toByteArray();
    switch (m.kind()) {
      case "unknown field" -> {
        return new Mutated(
            concat(valid, varintField(4000 + m.variant() % 100, m.variant())),
            null,
            "unknown field " + (4000 + m.variant() % 100));
      }
      case "wrong wire type" -> {
        // field 1 (a string or message in every request) sent as a varint
        return new Mutated(concat(valid, varintField(1, 7)), null, "field 1 with wire type varint");
      }
      case "truncated" -> {
        int cut = valid.length == 0 ? 0 : m.variant() % valid.length;
        return new Mutated(
            java.util.Arrays.copyOf(valid, cut),
            null,
            "cut to " + cut + " of " + valid.length + " bytes");
      }
      case "damaged byte" -> {
        byte[] copy = valid.clone();
        if (copy.length > 0) {
          copy[m.field() % copy.length] ^= (byte) (1 + m.variant() % 255);
        }
        return new Mutated(
            copy, null, "byte " + (copy.length == 0 ? 0 : m.field() % copy.length) + " damaged");
      }
      case "deep nesting" -> {
        int depth = new int[] {20, 101, 3000}[m.variant() % 3];
        return new Mutated(concat(valid, nested(depth)), null, "field 3 nested " + depth + " deep");
      }
      default -> {
        return fieldValue(request, m);
      }
    }
  }

  private static Mutated fieldValue(Message request, Mutation m) {
    Message.Builder root = request.toBuilder();
    List<Site> sites = new ArrayList<>();
    collect(root, "", sites);
    if (sites.isEmpty()) {
      return new Mutated(
          concat(request.toByteArray(), varintField(4000, 1)), null, "unknown field 4000");
    }
    Site site = sites.get(m.field() % sites.size());
    FieldDescriptor f = site.field();
    Object value = hostile(f, m.variant());
    String shown;
    if (f.isRepeated() && site.index() < 0) {
      // a repeated field: its first element copied many times
      Object first = site.owner().getRepeatedField(f, 0);
      int copies = new int[] {2, 100, 1001}[m.variant() % 3];
      for (int i = 1; i < copies; i++) {
        site.owner().addRepeatedField(f, first);
      }
      shown = "repeated " + copies + " times";
    } else if (f.isRepeated()) {
      site.owner().setRepeatedField(f, site.index(), value);
      shown = show(value);
    } else {
      site.owner().setField(f, value);
      shown = show(value);
    }
    Message mutated = root.build();
    return new Mutated(mutated.toByteArray(), mutated, site.path() + " = " + shown);
  }

  private static String show(Object value) {
    String s =
        value instanceof ByteString b
            ? b.size() + " bytes"
            : String.valueOf(value).replace('\n', ' ');
    return s.length() > 120 ? s.substring(0, 120) + "...(" + s.length() + " chars)" : s;
  }

  private static Object hostile(FieldDescriptor f, int v) {
    return switch (f.getJavaType()) {
      case STRING ->
          new String[] {
                "",
                "x".repeat(1 << 20),
                "\u0000",
                "\u202e\u2603",
                "\ud83d\ude00".repeat(200),
                "A\uFFFFB",
                "NaN",
                "-1",
                "system"
              }
              [v % 9];
      case BYTE_STRING ->
          new ByteString[] {
                ByteString.EMPTY,
                ByteString.copyFrom(new byte[70_000]),
                ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xfe}),
                ByteString.copyFrom(new byte[(2 << 20) + 1])
              }
              [v % 4];
      case INT -> new int[] {-1, 0, Integer.MAX_VALUE, Integer.MIN_VALUE, 1001}[v % 5];
      case LONG -> new long[] {-1, 0, Long.MAX_VALUE, Long.MIN_VALUE, 316224001L}[v % 5];
      case BOOLEAN -> v % 2 == 0;
      case MESSAGE -> hostileMessage(f, v);
      default -> throw new IllegalStateException(f.getFullName());
    };
  }

  private static Message hostileMessage(FieldDescriptor f, int v) {
    String type = f.getMessageType().getFullName();
    if (type.equals("google.protobuf.Timestamp")) {
      long[][] choices = {
        {-62135596801L, 0},
        {253402300800L, 0},
        {1700000000L, -1},
        {1700000000L, 1_000_000_000},
        {1700000000L, 1},
        {-1, 0},
        {Long.MAX_VALUE, 0}
      };
      long[] c = choices[v % choices.length];
      return com.google.protobuf.Timestamp.newBuilder()
          .setSeconds(c[0])
          .setNanos((int) c[1])
          .buildPartial();
    }
    if (type.equals("google.protobuf.Duration")) {
      long[][] choices = {
        {-5, 0}, {0, 0}, {315576000001L, 0}, {Long.MAX_VALUE, 0}, {1, -1}, {0, 1}
      };
      long[] c = choices[v % choices.length];
      return com.google.protobuf.Duration.newBuilder()
          .setSeconds(c[0])
          .setNanos((int) c[1])
          .buildPartial();
    }
    return com.google.protobuf.DynamicMessage.getDefaultInstance(f.getMessageType());
  }

  private static void collect(Message.Builder b, String path, List<Site> sites) {
    for (FieldDescriptor f : b.getDescriptorForType().getFields()) {
      String p = path.isEmpty() ? f.getName() : path + "." + f.getName();
      if (f.isRepeated()) {
        int n = b.getRepeatedFieldCount(f);
        if (n > 0 && !f.isMapField()) {
          sites.add(new Site(b, f, -1, p));
        }
        for (int i = 0; i < n; i++) {
          if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            sites.add(new Site(b, f, i, p + "[" + i + "]"));
            if (!f.isMapField()) {
              collect(b.getRepeatedFieldBuilder(f, i), p + "[" + i + "]", sites);
            }
          } else {
            sites.add(new Site(b, f, i, p + "[" + i + "]"));
          }
        }
      } else {
        sites.add(new Site(b, f, -1, p));
        if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && b.hasField(f)) {
          collect(b.getFieldBuilder(f), p, sites);
        }
      }
    }
  }

  private static byte[] varintField(int number, long value) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      CodedOutputStream c = CodedOutputStream.newInstance(out);
      c.writeUInt64(number, value);
      c.flush();
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Field 3 of a request holding a message whose field 1 holds a message ... {@code depth} deep.
   */
  private static byte[] nested(int depth) {
    ByteString inner = ByteString.EMPTY;
    for (int i = 0; i < depth; i++) {
      ByteString.Output out = ByteString.newOutput();
      try {
        CodedOutputStream c = CodedOutputStream.newInstance(out);
        c.writeBytes(1, inner);
        c.flush();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      inner = out.toByteString();
    }
    ByteString.Output out = ByteString.newOutput();
    try {
      CodedOutputStream c = CodedOutputStream.newInstance(out);
      c.writeBytes(3, inner);
      c.flush();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out.toByteString().toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
