package io.varve.bench.cost;

import io.varve.bench.result.CapacitySummary;
import java.util.Locale;

/**
 * What a system costs to serve a throughput at the SLA its capacity was searched for. Pure
 * arithmetic over a {@link Pricing.PricedSystem} and a {@link CapacitySummary}; docs/bench.md#cost
 * gives each formula.
 *
 * <ul>
 *   <li>Nodes: {@code max(minimum, ceil(throughput / (capacity / measuredNodes)))} nodes, each at
 *       its hourly price: capacity is taken to grow with the nodes, as it does for a cluster whose
 *       data and load spread evenly. A capacity of 0 (the SLA held at no rate) sizes nothing.
 *   <li>DynamoDB: the units per operation ({@link CapacityUnits}) times the throughput; provisioned
 *       and reserved capacity sized so that the workload uses {@code utilization} of it, reserved
 *       capacity bought in blocks of 100 units with its upfront payment spread over its term, and
 *       on-demand requests billed per million.
 * </ul>
 *
 * Storage and {@code otherMonthly} are added every month. Yearly is twelve months, the reserved
 * upfront included once per year of its term; monthly is the yearly amount over twelve.
 */
public final class CostModel {

  private CostModel() {}

  /**
   * One system's cost.
   *
   * @param system the priced system
   * @param summary the capacity search it was priced from
   * @param priced false when it could not be sized ({@code reason} says why)
   * @param reason why not, or empty
   * @param monthly yearly over twelve
   * @param yearly a year of it
   * @param upfront paid once per term (reserved capacity), included in yearly pro rata
   * @param sizedAs the deployment that serves the throughput, in words
   */
  public record Cost(
      Pricing.PricedSystem system,
      CapacitySummary summary,
      boolean priced,
      String reason,
      double monthly,
      double yearly,
      double upfront,
      String sizedAs) {}

  /** The cost of serving {@code throughput} ops/s with {@code system}. */
  public static Cost cost(
      Pricing pricing, Pricing.PricedSystem system, CapacitySummary summary, double throughput) {
    double fixedMonthly = system.storageGb() * system.storagePerGbMonth() + system.otherMonthly();
    if (system.deployment() instanceof Pricing.Nodes n) {
      if (summary.capacityOpsPerSec() <= 0) {
        return new Cost(
            system,
            summary,
            false,
            "the SLA held at no rate, so no number of nodes is known to meet it",
            0,
            0,
            0,
            "");
      }
      double perNode = summary.capacityOpsPerSec() / (double) n.measuredNodes();
      long nodes = Math.max(n.minimum(), (long) Math.ceil(throughput / perNode - 1e-9));
      double monthly = nodes * n.pricePerHour() * pricing.hoursPerMonth() + fixedMonthly;
      return priced(
          system,
          summary,
          monthly,
          monthly * 12,
          0,
          String.format(
              Locale.ROOT,
              "%d x %s (%.0f ops/s per node measured%s)",
              nodes,
              n.instance(),
              perNode,
              nodes == n.minimum() && throughput / perNode < n.minimum() ? ", the minimum" : ""));
    }
    Pricing.DynamoDb d = (Pricing.DynamoDb) system.deployment();
    CapacityUnits units = CapacityUnits.of(summary);
    double writesPerSecond = throughput * units.writePerOperation();
    double readsPerSecond = throughput * units.readPerOperation();
    String perOperation =
        String.format(
            Locale.ROOT,
            "%.2f write and %.2f read units per operation, %s",
            units.writePerOperation(),
            units.readPerOperation(),
            units.measured()
                ? "as consumed in the run"
                : "by the item-size rule for items of " + units.itemBytes() + " bytes");
    switch (d.mode()) {
      case PROVISIONED -> {
        // a table is provisioned at least one unit of each kind
        long wcu = Math.max(1, (long) Math.ceil(writesPerSecond / d.utilization() - 1e-9));
        long rcu = Math.max(1, (long) Math.ceil(readsPerSecond / d.utilization() - 1e-9));
        double monthly =
            (wcu * d.writeUnitHour() + rcu * d.readUnitHour()) * pricing.hoursPerMonth()
                + fixedMonthly;
        return priced(
            system,
            summary,
            monthly,
            monthly * 12,
            0,
            String.format(
                Locale.ROOT,
                "%d WCU and %d RCU provisioned, %.0f %% used (%s)",
                wcu,
                rcu,
                d.utilization() * 100,
                perOperation));
      }
      case RESERVED -> {
        long wcu = blocks(writesPerSecond / d.utilization()) * 100;
        long rcu = blocks(readsPerSecond / d.utilization()) * 100;
        double upfront = wcu / 100.0 * d.writeUpfrontPer100() + rcu / 100.0 * d.readUpfrontPer100();
        double hourly = wcu / 100.0 * d.writeHourPer100() + rcu / 100.0 * d.readHourPer100();
        double yearly =
            upfront / d.termYears() + (hourly * pricing.hoursPerMonth() + fixedMonthly) * 12;
        return priced(
            system,
            summary,
            yearly / 12,
            yearly,
            upfront,
            String.format(
                Locale.ROOT,
                "%d WCU and %d RCU reserved for %s year(s), %.0f %% used (%s)",
                wcu,
                rcu,
                trim(d.termYears()),
                d.utilization() * 100,
                perOperation));
      }
      default -> {
        double seconds = pricing.hoursPerMonth() * 3600;
        double monthly =
            writesPerSecond * seconds / 1e6 * d.writeRequestPerMillion()
                + readsPerSecond * seconds / 1e6 * d.readRequestPerMillion()
                + fixedMonthly;
        return priced(
            system,
            summary,
            monthly,
            monthly * 12,
            0,
            String.format(
                Locale.ROOT,
                "on-demand, %.0f write and %.0f read request units per second (%s)",
                writesPerSecond,
                readsPerSecond,
                perOperation));
      }
    }
  }

  private static Cost priced(
      Pricing.PricedSystem system,
      CapacitySummary summary,
      double monthly,
      double yearly,
      double upfront,
      String sizedAs) {
    return new Cost(system, summary, true, "", monthly, yearly, upfront, sizedAs);
  }

  private static long blocks(double units) {
    return Math.max(1, (long) Math.ceil(units / 100 - 1e-9));
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
