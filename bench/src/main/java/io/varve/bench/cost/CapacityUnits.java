package io.varve.bench.cost;

import io.varve.bench.engine.BenchInputException;
import io.varve.bench.result.CapacitySummary;
import java.util.Map;

/**
 * DynamoDB capacity units per operation of a workload: measured, when the search's binding counted
 * the units DynamoDB reported consumed ({@code ReturnConsumedCapacity}), or else by DynamoDB's
 * item-size rule applied to the workload's records:
 *
 * <ul>
 *   <li>a write (PutItem, UpdateItem, DeleteItem) costs one write unit per started KiB of the whole
 *       item: a YCSB record of ten 100-byte fields is about 1.1 KB and costs 2;
 *   <li>a read (GetItem) costs one read unit per started 4 KiB of the whole item when strongly
 *       consistent, half that when eventually consistent, whichever fields it asks for;
 *   <li>a scan reads its first item with GetItem and the rest with Scan, which costs by the bytes
 *       of all the items it returns, per started 4 KiB.
 * </ul>
 *
 * @param readPerOperation read units per operation of the workload's mix
 * @param writePerOperation write units per operation of the mix
 * @param itemBytes the item size the rule used (0 when measured)
 * @param measured whether the units were measured rather than computed
 */
public record CapacityUnits(
    double readPerOperation, double writePerOperation, long itemBytes, boolean measured) {

  /** Counters of the {@code dynamodb} binding: units consumed and the requests that did. */
  public static final String READ_MILLIUNITS = "consumed_read_milliunits";

  public static final String WRITE_MILLIUNITS = "consumed_write_milliunits";

  /** Operations of the binding over the same span as its consumed-unit counters. */
  public static final String OPERATIONS = "consumed_operations";

  /** The units per operation of the search's workload at its capacity. */
  public static CapacityUnits of(CapacitySummary summary) {
    Map<String, Long> counters = summary.counters();
    Long ops = counters.get(OPERATIONS);
    if (ops != null && ops > 0 && counters.containsKey(READ_MILLIUNITS)) {
      return new CapacityUnits(
          counters.get(READ_MILLIUNITS) / 1000.0 / ops,
          counters.getOrDefault(WRITE_MILLIUNITS, 0L) / 1000.0 / ops,
          0,
          true);
    }
    return itemSizeRule(summary.properties(), summary);
  }

  /** The item-size rule over the workload's properties and the mix that ran. */
  static CapacityUnits itemSizeRule(Map<String, String> props, CapacitySummary summary) {
    long item = itemBytes(props);
    boolean consistent = Boolean.parseBoolean(props.getOrDefault("dynamodb.consistentReads", ""));
    double read = Math.ceil(item / 4096.0) * (consistent ? 1 : 0.5);
    double write = Math.ceil(item / 1024.0);
    long maxScan = number(props, "maxscanlength", 1000);
    // the scan length is uniform over 1..maxscanlength (YCSB's default distribution)
    double scanned = (1 + maxScan) / 2.0;
    double scan = read + Math.ceil((scanned - 1) * item / 4096.0) * (consistent ? 1 : 0.5);
    double reads = summary.share("READ") * read + summary.share("SCAN") * scan;
    double writes =
        (summary.share("UPDATE") + summary.share("INSERT") + summary.share("DELETE")) * write;
    return new CapacityUnits(reads, writes, item, false);
  }

  /**
   * A YCSB record's size as DynamoDB counts it: the names and values of its attributes, the key
   * attribute's included. The key is {@code user} and up to 19 digits of its hash.
   */
  static long itemBytes(Map<String, String> props) {
    long fields = number(props, "fieldcount", 10);
    long length = number(props, "fieldlength", 100);
    String prefix = props.getOrDefault("fieldnameprefix", "field");
    long names = 0;
    for (long i = 0; i < fields; i++) {
      names += prefix.length() + Long.toString(i).length();
    }
    String keyName = props.getOrDefault("dynamodb.primaryKey", "y_id");
    return names + fields * length + keyName.length() + "user".length() + 19;
  }

  private static long number(Map<String, String> props, String name, long fallback) {
    String value = props.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      long n = Long.parseLong(value.trim());
      if (n >= 0 && n <= 100_000_000) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new BenchInputException(
        "the capacity summary's property "
            + name
            + " is "
            + value
            + " (expected: a whole number from 0 to 100000000)");
  }
}
