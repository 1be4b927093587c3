package io.varve.bench.binding.dynamodb;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Turns YCSB's keys and fields into DynamoDB items and back: the key as a string attribute (with
 * the fixed hash key in HASH_AND_RANGE mode), each field as a binary attribute.
 */
final class ItemCodec {

  private final DynamoDbSettings settings;

  ItemCodec(DynamoDbSettings settings) {
    this.settings = settings;
  }

  Map<String, AttributeValue> key(String key) {
    Map<String, AttributeValue> primaryKey = new HashMap<>(4);
    settings
        .hashKey()
        .ifPresent(hash -> primaryKey.put(hash, AttributeValue.fromS(settings.hashKeyValue())));
    primaryKey.put(settings.primaryKey(), AttributeValue.fromS(key));
    return primaryKey;
  }

  Map<String, AttributeValue> item(String key, Map<String, ByteIterator> values) {
    Map<String, AttributeValue> item = key(key);
    values.forEach((field, value) -> item.put(field, value(value)));
    return item;
  }

  static AttributeValue value(ByteIterator value) {
    return AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(value.toArray()));
  }

  /** Copies an item's fields, not its key attributes, into {@code result}, which it returns. */
  <M extends Map<String, ByteIterator>> M fields(Map<String, AttributeValue> item, M result) {
    item.forEach(
        (name, value) -> {
          if (!name.equals(settings.primaryKey())
              && !settings.hashKey().map(name::equals).orElse(false)) {
            result.put(
                name,
                value.b() != null
                    ? new ByteArrayByteIterator(value.b().asByteArrayUnsafe())
                    : new StringByteIterator(value.s() == null ? "" : value.s()));
          }
        });
    return result;
  }

  /**
   * Asks for the given fields only, through a projection with placeholder names ({@code #f0}),
   * since field names may be reserved words of DynamoDB. All attributes when {@code fields} is
   * null, as YCSB asks when {@code readallfields=true}.
   */
  static void project(
      Set<String> fields, Consumer<String> projection, Consumer<Map<String, String>> names) {
    if (fields == null || fields.isEmpty()) {
      return;
    }
    Map<String, String> placeholders = new HashMap<>();
    StringBuilder expression = new StringBuilder();
    for (String field : fields) {
      String placeholder = "#f" + placeholders.size();
      placeholders.put(placeholder, field);
      expression.append(expression.length() == 0 ? "" : ", ").append(placeholder);
    }
    projection.accept(expression.toString());
    names.accept(placeholders);
  }
}
