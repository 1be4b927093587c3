package io.varve.server.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Limits;
import io.varve.core.text.Characters;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The JSON form of the API's protobuf messages, following the proto3 JSON mapping, with errors that
 * name the offending field by its path as written ({@code events[2].eventTime}).
 *
 * <p>Accepted beyond the strict mapping, so that configuration snippets can be pasted as written:
 * {@code //} and {@code /* *}{@code /} comments, trailing commas, and durations with the units ms,
 * s, m, h, d ({@code "129600s"}, {@code "36h"}). Unknown fields are refused, and so is a key given
 * twice in one object, in the same spelling or in both ({@code event_id} and {@code eventId}).
 *
 * <p>The parser's limits are set here, not inherited: {@link #MAX_NESTING_DEPTH}, {@link
 * #MAX_NUMBER_LENGTH}, {@link #MAX_NAME_LENGTH}, and strings as long as the largest body the server
 * takes. A body over one is refused as {@code body: over a limit of the JSON reader}.
 *
 * <p>Printed: lowerCamelCase names, and every field that has no presence even at its default value
 * ({@code 0}, {@code false}, {@code ""}, {@code []}, {@code {}}, an enum's first value), so that a
 * client needs no default of its own (an event error at index 0 carries {@code "index":0}). A field
 * with presence (a message, a proto3 {@code optional} scalar, a member of a {@code oneof}) is
 * printed only when set, so its absence still says "not set".
 */
public final class ProtoJson {

  /**
   * Deepest nesting of JSON objects and arrays in a body. The deepest valid request, a search query
   * with boolean queries nested to the largest {@code maxQueryDepth} (32), needs about 100.
   */
  public static final int MAX_NESTING_DEPTH = 128;

  /** Most characters of one number, whether a JSON number or a string holding one. */
  public static final int MAX_NUMBER_LENGTH = 1000;

  /** Most characters of one object key: longer than any field name or map key of the API. */
  public static final int MAX_NAME_LENGTH = 50_000;

  private static final ObjectMapper DEFAULT_MAPPER = mapper(Limits.DEFAULT.maxRequestBytes());
  private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS =
      new ConcurrentHashMap<>();

  // includingDefaultValueFields() leaves out unset fields with presence (messages, optional, oneof)
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().omittingInsignificantWhitespace().includingDefaultValueFields();

  private final ObjectMapper mapper;

  /**
   * A codec whose parser takes strings up to {@code maxRequestBytes} characters: no string of a
   * body the server accepts is refused by the parser, so an oversized value is refused by its
   * field's own limit, with its name.
   */
  public ProtoJson(int maxRequestBytes) {
    this.mapper =
        maxRequestBytes == Limits.DEFAULT.maxRequestBytes()
            ? DEFAULT_MAPPER
            : mapper(maxRequestBytes);
  }

  /** As {@link #ProtoJson(int)} with the default {@code maxRequestBytes}. */
  public ProtoJson() {
    this(Limits.DEFAULT.maxRequestBytes());
  }

  private static ObjectMapper mapper(int maxStringLength) {
    // set explicitly rather than inherited from Jackson's defaults, which change between versions;
    // documents and token counts need no limit of their own: the body size bounds them
    StreamReadConstraints constraints =
        StreamReadConstraints.builder()
            .maxNestingDepth(MAX_NESTING_DEPTH)
            .maxNumberLength(MAX_NUMBER_LENGTH)
            .maxNameLength(MAX_NAME_LENGTH)
            .maxStringLength(maxStringLength)
            .build();
    // a key given twice is refused: with the last one winning, a client or a proxy reading the
    // first would see another request than the server ran
    JsonFactory factory =
        JsonFactory.builder()
            .streamReadConstraints(constraints)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    return JsonMapper.builder(factory)
        .enable(JsonParser.Feature.ALLOW_COMMENTS)
        .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_TRAILING_COMMA)
        .build();
  }

  private static final LargeBytesJson LARGE = new LargeBytesJson(ProtoJson::printText);

  /**
   * The JSON form of {@code message} in UTF-8, as {@link #print}, with large {@code bytes} fields
   * written in base64 straight into the array ({@link LargeBytesJson}): what a response of large
   * values holds is its values and this array, nothing in between.
   */
  public byte[] printUtf8(Message message) {
    return LARGE.bytes(message);
  }

  /** Writes {@link #printUtf8} of {@code message} to {@code out}, without the array. */
  public void printTo(Message message, OutputStream out) throws IOException {
    LARGE.write(message, out);
  }

  private static String printText(Message message) {
    try {
      return PRINTER.print(message);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The JSON form of {@code message} (see the class comment for which fields are printed). */
  public String print(Message message) {
    return printText(message);
  }

  /**
   * Parses {@code json} into a message of {@code prototype}'s type, with the parser limits of the
   * default {@code maxRequestBytes}.
   */
  public static <T extends Message> T parse(String json, T prototype) {
    return parse(DEFAULT_MAPPER, json, prototype);
  }

  /**
   * Parses {@code json} into a message of {@code prototype}'s type, with this codec's parser
   * limits.
   */
  public <T extends Message> T read(String json, T prototype) {
    return parse(mapper, json, prototype);
  }

  private static <T extends Message> T parse(ObjectMapper mapper, String json, T prototype) {
    JsonNode node;
    try {
      node = mapper.readTree(json.isBlank() ? "{}" : json);
    } catch (StreamConstraintsException e) {
      throw InvalidFieldException.of(
          "body",
          "over a limit of the JSON reader: "
              + e.getOriginalMessage().replaceAll(", from `[^`]*`", "")
              + at(e.getLocation())
              + " (limits: nesting "
              + MAX_NESTING_DEPTH
              + " levels, numbers "
              + MAX_NUMBER_LENGTH
              + " characters, keys "
              + MAX_NAME_LENGTH
              + " characters)");
    } catch (JsonProcessingException e) {
      String duplicate = duplicateKey(e);
      if (duplicate != null) {
        throw InvalidFieldException.of(
            duplicate,
            "given twice"
                + (e.getLocation() == null ? "" : ",")
                + at(e.getLocation())
                + " (expected: each key at most once in an object)");
      }
      throw InvalidFieldException.of(
          "body", "not valid JSON: " + e.getOriginalMessage() + at(e.getLocation()));
    }
    Message.Builder builder = prototype.newBuilderForType();
    merge(node, builder, "");
    @SuppressWarnings("unchecked")
    T message = (T) builder.build();
    return message;
  }

  /**
   * The path of the key the parser found twice in one object ({@code events[1].eventId}), as
   * written; {@code null} when {@code e} is another failure.
   */
  private static String duplicateKey(JsonProcessingException e) {
    if (!(e.getProcessor() instanceof JsonParser parser)) {
      return null;
    }
    JsonStreamContext context = parser.getParsingContext();
    if (context == null
        || !context.inObject()
        || context.getCurrentName() == null
        || !e.getOriginalMessage().equals("Duplicate field '" + context.getCurrentName() + "'")) {
      return null;
    }
    StringBuilder path = new StringBuilder();
    for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
      path.insert(0, c.inArray() ? "[" + c.getCurrentIndex() + "]" : "." + c.getCurrentName());
    }
    return path.charAt(0) == '.' ? path.substring(1) : path.toString();
  }

  /** Where the parser stopped, when it says (it does not for every failure). */
  private static String at(JsonLocation location) {
    return location == null
        ? ""
        : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
  }

  private static void merge(JsonNode node, Message.Builder builder, String path) {
    Descriptor type = builder.getDescriptorForType();
    if (!node.isObject()) {
      throw new InvalidFieldException(
          path.isEmpty() ? "body" : path,
          InvalidFieldException.shown(node.toString()),
          "a JSON object");
    }
    Map<String, FieldDescriptor> fields = FIELDS.computeIfAbsent(type, ProtoJson::fieldsByName);
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> entry = it.next();
      String fieldPath = path.isEmpty() ? entry.getKey() : path + "." + entry.getKey();
      FieldDescriptor field = fields.get(entry.getKey());
      if (field == null) {
        throw InvalidFieldException.of(
            fieldPath,
            "unknown field (expected one of: "
                + type.getFields().stream()
                    .map(FieldDescriptor::getJsonName)
                    .collect(Collectors.joining(", "))
                + ")");
      }
      // the parser refuses a key repeated as is; the key's other spelling is looked for here,
      // found after this one (the tree keeps the order of the keys)
      String alias = entry.getKey().equals(field.getName()) ? field.getJsonName() : field.getName();
      if (!alias.equals(entry.getKey()) && node.has(alias)) {
        throw InvalidFieldException.of(
            path.isEmpty() ? alias : path + "." + alias,
            "given twice, also as "
                + entry.getKey()
                + " (expected: each key at most once in an object, in either spelling)");
      }
      JsonNode value = entry.getValue();
      if (value.isNull()) {
        continue;
      }
      if (field.isMapField()) {
        mergeMap(value, builder, field, fieldPath);
      } else if (field.isRepeated()) {
        if (!value.isArray()) {
          throw new InvalidFieldException(
              fieldPath, InvalidFieldException.shown(value.toString()), "a JSON array");
        }
        for (int i = 0; i < value.size(); i++) {
          builder.addRepeatedField(
              field, convert(value.get(i), builder, field, fieldPath + "[" + i + "]"));
        }
      } else {
        requireOneMemberOf(builder, field, path, fieldPath);
        builder.setField(field, convert(value, builder, field, fieldPath));
      }
    }
  }

  /**
   * Refuses a second member of a oneof: protobuf would keep the last one given and drop the other
   * without a word (the proto3 JSON mapping refuses it, as grpc-java's parser does).
   */
  private static void requireOneMemberOf(
      Message.Builder builder, FieldDescriptor field, String path, String fieldPath) {
    Descriptors.OneofDescriptor oneof = field.getRealContainingOneof();
    if (oneof == null || !builder.hasOneof(oneof)) {
      return;
    }
    FieldDescriptor other = builder.getOneofFieldDescriptor(oneof);
    throw InvalidFieldException.of(
        fieldPath,
        "given with "
            + (path.isEmpty() ? "" : path + ".")
            + other.getJsonName()
            + " (expected: one of "
            + oneof.getFields().stream()
                .map(FieldDescriptor::getJsonName)
                .collect(Collectors.joining(", "))
            + ", not two)");
  }

  private static void mergeMap(
      JsonNode value, Message.Builder builder, FieldDescriptor field, String path) {
    if (!value.isObject()) {
      throw new InvalidFieldException(
          path, InvalidFieldException.shown(value.toString()), "a JSON object");
    }
    FieldDescriptor keyField = field.getMessageType().findFieldByName("key");
    FieldDescriptor valueField = field.getMessageType().findFieldByName("value");
    Iterator<Map.Entry<String, JsonNode>> it = value.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      Message.Builder entry = builder.newBuilderForField(field);
      entry.setField(keyField, e.getKey());
      entry.setField(valueField, convert(e.getValue(), entry, valueField, path + "." + e.getKey()));
      builder.addRepeatedField(field, entry.build());
    }
  }

  private static Object convert(
      JsonNode value, Message.Builder parent, FieldDescriptor field, String path) {
    switch (field.getJavaType()) {
      case MESSAGE:
        return message(value, parent.newBuilderForField(field), path);
      case INT:
        return (int) integer(value, path, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case LONG:
        return integer(value, path, Long.MIN_VALUE, Long.MAX_VALUE);
      case BOOLEAN:
        if (value.isBoolean()) {
          return value.booleanValue();
        }
        if (value.isTextual()
            && (value.asText().equals("true") || value.asText().equals("false"))) {
          return Boolean.parseBoolean(value.asText());
        }
        throw new InvalidFieldException(
            path, InvalidFieldException.shown(value.toString()), "true or false");
      case STRING:
        if (!value.isTextual()) {
          throw new InvalidFieldException(
              path, InvalidFieldException.shown(value.toString()), "a string");
        }
        return wellFormed(value.textValue(), path);
      case BYTE_STRING:
        return bytes(value, path);
      case DOUBLE:
        return decimal(value, path).doubleValue();
      case FLOAT:
        return decimal(value, path).floatValue();
      case ENUM:
        if (value.isTextual() && field.getEnumType().findValueByName(value.textValue()) != null) {
          return field.getEnumType().findValueByName(value.textValue());
        }
        throw new InvalidFieldException(
            path,
            InvalidFieldException.shown(value.toString()),
            "one of " + field.getEnumType().getValues());
      default:
        throw new IllegalStateException("unsupported field type " + field.getJavaType());
    }
  }

  private static Message message(JsonNode value, Message.Builder builder, String path) {
    String typeName = builder.getDescriptorForType().getFullName();
    if (typeName.equals("google.protobuf.Timestamp")) {
      return WellKnown.timestamp(value, path);
    }
    if (typeName.equals("google.protobuf.Duration")) {
      return WellKnown.duration(value, path);
    }
    merge(value, builder, path);
    return builder.build();
  }

  private static long integer(JsonNode value, String path, long min, long max) {
    BigDecimal number = decimal(value, path);
    try {
      long v = number.longValueExact();
      if (v < min || v > max) {
        throw new ArithmeticException();
      }
      return v;
    } catch (ArithmeticException e) {
      throw new InvalidFieldException(
          path, InvalidFieldException.shown(value.toString()), "an integer in " + min + ".." + max);
    }
  }

  private static BigDecimal decimal(JsonNode value, String path) {
    if (value.isNumber()
        && !(value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue()))) {
      // a JSON number beyond double's range (1e400) reads as infinity, which no field takes
      return value.decimalValue();
    }
    if (value.isTextual() && value.textValue().length() > MAX_NUMBER_LENGTH) {
      // parsing a long run of digits costs time quadratic in its length: refuse it unread
      throw new InvalidFieldException(
          path,
          InvalidFieldException.shown(value.textValue()),
          "a number of at most " + MAX_NUMBER_LENGTH + " characters");
    }
    if (value.isTextual()) {
      try {
        return new BigDecimal(value.textValue().trim());
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw new InvalidFieldException(
        path,
        InvalidFieldException.shown(value.toString()),
        "a number (a JSON number or a string holding one)");
  }

  private static ByteString bytes(JsonNode value, String path) {
    if (!value.isTextual()) {
      throw new InvalidFieldException(
          path, InvalidFieldException.shown(value.toString()), "a base64 string");
    }
    String text = value.textValue();
    try {
      boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
      return ByteString.copyFrom(
          (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text));
    } catch (IllegalArgumentException e) {
      throw new InvalidFieldException(path, text, "a base64 string");
    }
  }

  private static Map<String, FieldDescriptor> fieldsByName(Descriptor type) {
    Map<String, FieldDescriptor> byName = new HashMap<>();
    List<FieldDescriptor> fields = type.getFields();
    for (FieldDescriptor field : fields) {
      byName.put(field.getName(), field);
      byName.put(field.getJsonName(), field);
    }
    return byName;
  }

  /**
   * The text, if it is well-formed Unicode. JSON's {@code \\uD800} escapes can spell an unpaired
   * surrogate, which has no UTF-8 form: stored, it would silently become another string (a series
   * written under one id and found under none).
   */
  static String wellFormed(String text, String path) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw InvalidFieldException.of(
            path,
            String.format(
                "an unpaired surrogate \\u%04X at character %d"
                    + " (expected: well-formed Unicode text)",
                (int) c, Characters.count(text.subSequence(0, i))));
      }
    }
    return text;
  }
}
