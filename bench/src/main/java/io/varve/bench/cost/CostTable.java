package io.varve.bench.cost;

import io.varve.bench.engine.BenchInputException;
import io.varve.bench.result.CapacitySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every system of a pricing file priced at one throughput from the capacity search of its binding:
 * what {@code bench cost} prints and {@code bench report} shows.
 *
 * @param pricing the prices
 * @param throughput the ops/s every system is priced for
 * @param costs one per system whose binding had a search, in the file's order
 * @param warnings what has no effect or does not compare alike: a system of a binding no search was
 *     given for, a search no system prices, searches of different SLAs or workloads
 */
public record CostTable(
    Pricing pricing, double throughput, List<CostModel.Cost> costs, List<String> warnings) {

  /**
   * Prices {@code pricing}'s systems from {@code searches} (one per binding) at {@code ops}, or
   * when empty at the highest capacity among them.
   */
  public static CostTable of(
      Pricing pricing, List<CapacitySummary> searches, Optional<Double> ops) {
    Map<String, CapacitySummary> byBinding = new LinkedHashMap<>();
    for (CapacitySummary s : searches) {
      if (byBinding.put(s.binding(), s) != null) {
        throw new BenchInputException(
            "two capacity searches of binding " + s.binding() + " (expected: one per binding)");
      }
    }
    List<String> warnings = new ArrayList<>();
    Set<String> slas = new TreeSet<>();
    Set<String> workloads = new TreeSet<>();
    searches.forEach(s -> slas.add(s.sla() + " (" + s.latency() + " latency)"));
    searches.forEach(s -> workloads.add(s.properties().getOrDefault("workload", "")));
    if (slas.size() > 1) {
      warnings.add("the searches were for different SLAs: " + slas);
    }
    if (workloads.size() > 1) {
      warnings.add("the searches ran different workloads: " + workloads);
    }
    double throughput =
        ops.orElse(
            (double)
                searches.stream().mapToLong(CapacitySummary::capacityOpsPerSec).max().orElse(0));
    if (throughput <= 0) {
      throw new BenchInputException(
          "--ops: absent (expected: a throughput to price: no search found a rate at which its SLA"
              + " held)");
    }
    Set<String> priced = new TreeSet<>();
    List<CostModel.Cost> costs = new ArrayList<>();
    for (Pricing.PricedSystem system : pricing.systems()) {
      CapacitySummary summary = byBinding.get(system.binding());
      if (summary == null) {
        warnings.add(
            "system "
                + system.name()
                + " is of binding "
                + system.binding()
                + ", and no capacity summary of that binding was given: not priced");
        continue;
      }
      priced.add(system.binding());
      costs.add(CostModel.cost(pricing, system, summary, throughput));
    }
    for (String binding : byBinding.keySet()) {
      if (!priced.contains(binding)) {
        warnings.add("the search of binding " + binding + " is priced by no system");
      }
    }
    return new CostTable(pricing, throughput, List.copyOf(costs), List.copyOf(warnings));
  }

  /** The priced system of the lowest yearly cost. */
  public Optional<CostModel.Cost> cheapest() {
    return costs.stream()
        .filter(CostModel.Cost::priced)
        .min(java.util.Comparator.comparingDouble(CostModel.Cost::yearly));
  }

  /** Whether every system with a search could be sized. */
  public boolean allPriced() {
    return !costs.isEmpty() && costs.stream().allMatch(CostModel.Cost::priced);
  }
}
