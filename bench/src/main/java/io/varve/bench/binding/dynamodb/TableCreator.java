package io.varve.bench.binding.dynamodb;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import site.ycsb.DBException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Creates the benchmark's table when {@code dynamodb.create=true}, once per JVM however many
 * threads initialise at the same time, and waits until it is ACTIVE. A table that exists is kept as
 * it is; another loader process creating it at the same time is tolerated.
 */
final class TableCreator {

  private static final Set<String> READY = new HashSet<>();

  private TableCreator() {}

  static synchronized void ensureTable(DynamoDbClient client, DynamoDbSettings settings)
      throws DBException {
    String id =
        settings.endpoint().map(Object::toString).orElse(settings.region())
            + "/"
            + settings.table();
    if (READY.contains(id)) {
      return;
    }
    try {
      if (!exists(client, settings.table())) {
        create(client, settings);
      }
      client.waiter().waitUntilTableExists(b -> b.tableName(settings.table()));
    } catch (SdkException e) {
      throw new DBException(
          "dynamodb.create: cannot create table " + settings.table() + ": " + e.getMessage(), e);
    }
    READY.add(id);
  }

  private static boolean exists(DynamoDbClient client, String table) {
    try {
      client.describeTable(b -> b.tableName(table));
      return true;
    } catch (ResourceNotFoundException e) {
      return false;
    }
  }

  private static void create(DynamoDbClient client, DynamoDbSettings settings) {
    List<KeySchemaElement> keys = new ArrayList<>();
    List<AttributeDefinition> attributes = new ArrayList<>();
    settings
        .hashKey()
        .ifPresent(
            hash -> {
              keys.add(
                  KeySchemaElement.builder().attributeName(hash).keyType(KeyType.HASH).build());
              attributes.add(stringAttribute(hash));
            });
    keys.add(
        KeySchemaElement.builder()
            .attributeName(settings.primaryKey())
            .keyType(settings.hashKey().isPresent() ? KeyType.RANGE : KeyType.HASH)
            .build());
    attributes.add(stringAttribute(settings.primaryKey()));
    CreateTableRequest.Builder request =
        CreateTableRequest.builder()
            .tableName(settings.table())
            .keySchema(keys)
            .attributeDefinitions(attributes);
    if (settings.readCapacityUnits().isPresent()) {
      request
          .billingMode(BillingMode.PROVISIONED)
          .provisionedThroughput(
              b ->
                  b.readCapacityUnits((long) settings.readCapacityUnits().getAsInt())
                      .writeCapacityUnits((long) settings.writeCapacityUnits().getAsInt()));
    } else {
      request.billingMode(BillingMode.PAY_PER_REQUEST);
    }
    try {
      client.createTable(request.build());
    } catch (ResourceInUseException e) {
      // Created meanwhile by another process: the wait that follows covers it.
    }
  }

  private static AttributeDefinition stringAttribute(String name) {
    return AttributeDefinition.builder()
        .attributeName(name)
        .attributeType(ScalarAttributeType.S)
        .build();
  }
}
