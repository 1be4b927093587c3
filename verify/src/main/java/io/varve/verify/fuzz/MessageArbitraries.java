package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators of protobuf messages derived from their descriptors: every field of a message type
 * gets a generator from its declared type (scalars, nested messages, repeated fields, maps,
 * oneofs), unless an override for the field's full name says what values make sense for it.
 * Overrides are how the API's rules (name patterns, time windows, limits) enter the grammar; the
 * descriptors give its structure, so a field added to the API is fuzzed without changing the
 * fuzzer.
 */
final class MessageArbitraries {

  /** Nested messages deeper than this are left unset (recursive types such as SearchQuery). */
  private static final int MAX_DEPTH = 4;

  private final Map<String, Arbitrary<?>> overrides = new HashMap<>();

  /**
   * Values for one field, by full name ({@code varve.timeseries.v1.Event.event_id}). For a repeated
   * field the arbitrary gives the whole list; {@code null} values leave the field unset.
   */
  MessageArbitraries override(String fieldFullName, Arbitrary<?> values) {
    overrides.put(fieldFullName, values);
    return this;
  }

  /** Messages of {@code prototype}'s type. */
  <T extends Message> Arbitrary<T> of(T prototype) {
    return messages(prototype.getDescriptorForType(), 0)
        .map(
            dynamic -> {
              try {
                @SuppressWarnings("unchecked")
                T typed = (T) prototype.getParserForType().parseFrom(dynamic.toByteString());
                return typed;
              } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                throw new IllegalStateException(e);
              }
            });
  }

  private Arbitrary<Message> messages(Descriptor type, int depth) {
    List<Arbitrary<FieldValue>> parts = new ArrayList<>();
    for (OneofDescriptor oneof : type.getRealOneofs()) {
      List<Arbitrary<FieldValue>> choices = new ArrayList<>();
      for (FieldDescriptor field : oneof.getFields()) {
        if (depth < MAX_DEPTH || field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
          choices.add(field(field, depth));
        }
      }
      if (!choices.isEmpty()) {
        parts.add(Arbitraries.oneOf(choices));
      }
    }
    for (FieldDescriptor field : type.getFields()) {
      if (field.getRealContainingOneof() != null) {
        continue;
      }
      if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          && depth >= MAX_DEPTH
          && !overrides.containsKey(field.getFullName())) {
        continue;
      }
      Arbitrary<FieldValue> value = field(field, depth);
      // Most fields are set; an unset field exercises the defaults.
      parts.add(
          overrides.containsKey(field.getFullName())
              ? value
              : Arbitraries.frequencyOf(
                  net.jqwik.api.Tuple.of(4, value),
                  net.jqwik.api.Tuple.of(1, Arbitraries.just(new FieldValue(field, null)))));
    }
    if (parts.isEmpty()) {
      return Arbitraries.just(DynamicMessage.getDefaultInstance(type));
    }
    return Combinators.combine(parts)
        .as(
            values -> {
              DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
              for (FieldValue v : values) {
                v.setOn(builder);
              }
              return builder.build();
            });
  }

  private Arbitrary<FieldValue> field(FieldDescriptor field, int depth) {
    Arbitrary<?> override = overrides.get(field.getFullName());
    if (override != null) {
      return override.map(v -> new FieldValue(field, v));
    }
    if (field.isMapField()) {
      Descriptor entry = field.getMessageType();
      Arbitrary<Message> entries = messages(entry, depth + 1);
      return entries.list().ofMaxSize(3).map(list -> new FieldValue(field, list));
    }
    Arbitrary<?> single = single(field, depth);
    if (field.isRepeated()) {
      return single.list().ofMaxSize(3).map(list -> new FieldValue(field, list));
    }
    return single.map(v -> new FieldValue(field, v));
  }

  private Arbitrary<?> single(FieldDescriptor field, int depth) {
    switch (field.getJavaType()) {
      case STRING:
        return Arbitraries.oneOf(
            Arbitraries.strings().alpha().numeric().ofMaxLength(12),
            Arbitraries.strings().all().ofMaxLength(8));
      case BYTE_STRING:
        return ApiGrammar.randomBytes(0, 24).map(ByteString::copyFrom);
      case INT:
        return Arbitraries.oneOf(
            Arbitraries.integers().between(-2, 2000),
            Arbitraries.of(0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE));
      case LONG:
        return Arbitraries.oneOf(
            Arbitraries.longs().between(-2, 1_000_000),
            Arbitraries.of(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE));
      case BOOLEAN:
        return Arbitraries.of(true, false);
      case DOUBLE:
        return Arbitraries.doubles();
      case FLOAT:
        return Arbitraries.floats();
      case ENUM:
        return Arbitraries.of(field.getEnumType().getValues());
      case MESSAGE:
        return messages(field.getMessageType(), depth + 1);
      default:
        throw new IllegalStateException("no generator for " + field.getFullName());
    }
  }

  /** One generated field value; {@code null} leaves the field unset. */
  private record FieldValue(FieldDescriptor field, Object value) {
    void setOn(Message.Builder builder) {
      if (value == null) {
        return;
      }
      if (field.isRepeated()) {
        for (Object element : (List<?>) value) {
          builder.addRepeatedField(field, element);
        }
      } else {
        builder.setField(field, value);
      }
    }
  }
}
