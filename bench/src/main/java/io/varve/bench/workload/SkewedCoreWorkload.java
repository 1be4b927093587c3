package io.varve.bench.workload;

import java.util.Properties;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's CoreWorkload with one more {@code requestdistribution}: {@code hotset}, a hot set of keys
 * that receives a given share of the accesses. Every other property and distribution is
 * CoreWorkload's own.
 *
 * <ul>
 *   <li>{@code hotset.size}: keys in the hot set (default 1% of the records, at least 1); {@code 1}
 *       makes a single hot partition
 *   <li>{@code hotset.share}: fraction of accesses that hit the hot set (default 0.9)
 *   <li>{@code hotset.distribution}: {@code zipfian} (default) or {@code uniform} inside the hot
 *       set
 * </ul>
 */
public class SkewedCoreWorkload extends CoreWorkload {
  /** The extra request distribution. */
  public static final String HOTSET = "hotset";

  @Override
  public void init(Properties p) throws WorkloadException {
    if (!HOTSET.equals(p.getProperty(REQUEST_DISTRIBUTION_PROPERTY))) {
      super.init(p);
      return;
    }
    Properties base = new Properties();
    base.putAll(p);
    base.setProperty(REQUEST_DISTRIBUTION_PROPERTY, "uniform");
    super.init(base);
    long start = longProperty(p, INSERT_START_PROPERTY, 0);
    long records = longProperty(p, INSERT_COUNT_PROPERTY, recordcount - start);
    long hotSize = longProperty(p, "hotset.size", Math.max(1, records / 100));
    double share = doubleProperty(p, "hotset.share", 0.9);
    String inside = p.getProperty("hotset.distribution", "zipfian");
    if (!inside.equals("zipfian") && !inside.equals("uniform")) {
      throw new WorkloadException(
          "property hotset.distribution=" + inside + " is not valid: expected zipfian or uniform");
    }
    if (hotSize < 1 || hotSize > records) {
      throw new WorkloadException(
          "property hotset.size="
              + hotSize
              + " is not valid: expected 1 .. "
              + records
              + " (the records the run reads)");
    }
    if (!(share >= 0 && share <= 1)) {
      throw new WorkloadException(
          "property hotset.share=" + share + " is not valid: expected a fraction from 0 to 1");
    }
    keychooser = new HotSetGenerator(start, records, hotSize, share, inside.equals("zipfian"));
  }

  private static long longProperty(Properties p, String name, long defaultValue)
      throws WorkloadException {
    String value = p.getProperty(name);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new WorkloadException(
          "property " + name + "=" + value + " is not valid: expected an integer");
    }
  }

  private static double doubleProperty(Properties p, String name, double defaultValue)
      throws WorkloadException {
    String value = p.getProperty(name);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new WorkloadException(
          "property " + name + "=" + value + " is not valid: expected a number");
    }
  }
}
