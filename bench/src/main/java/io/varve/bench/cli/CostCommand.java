package io.varve.bench.cli;

import io.varve.bench.cost.CostModel;
import io.varve.bench.cost.Pricing;
import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.ResultFiles;
import io.varve.command.ExitStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bench cost --pricing FILE CAPACITY...}: what each system of the pricing file costs a month
 * and a year to serve one throughput at the SLA of its capacity search, and how many times the
 * cheapest each costs: the reference benchmark's final table. Prints the table, then a line {@code
 * cost.monthly=<amount> system=<name> yearly=<amount>} per system priced and {@code cost.ratio=<x>
 * system=<name> cheapest=<name>}.
 *
 * <p>Exit statuses: {@code OK} every system priced; {@code COMPLETED_WITH_ERRORS} some system could
 * not be sized (its SLA held at no rate); {@code INVALID_INPUT} a bad pricing file, summary or
 * option.
 */
@Command(
    name = "cost",
    mixinStandardHelpOptions = true,
    description = {
      "Price the systems of a pricing file at one throughput, each from the capacity search of its"
          + " binding (the capacity.json of bench capacity, or its directory).",
      "Prints cost.monthly=<amount> system=<name> yearly=<amount> per system and the ratios to the"
          + " cheapest. See docs/bench.md#cost for the formulas."
    })
final class CostCommand implements Callable<Integer> {
  @Spec CommandSpec command;

  @Option(
      names = "--pricing",
      required = true,
      paramLabel = "FILE",
      description = "The prices (YAML); workloads/pricing-example.yaml shows every key.")
  Path pricing;

  @Option(
      names = "--ops",
      paramLabel = "OPS",
      description =
          "The throughput to serve, ops/s (default: the highest capacity among the searches).")
  Double ops;

  @Parameters(
      arity = "1..*",
      paramLabel = "CAPACITY",
      description = "capacity.json files of bench capacity, or the directories holding them.")
  List<Path> inputs;

  @Override
  public Integer call() {
    if (ops != null && !(ops > 0 && ops <= 1e12)) {
      throw refused("--ops", ops, "a throughput above 0, ops/s");
    }
    Pricing prices = Pricing.read(pricing);
    Map<String, CapacitySummary> byBinding = new LinkedHashMap<>();
    Map<String, Path> fileOf = new LinkedHashMap<>();
    for (Path input : inputs) {
      CapacitySummary summary = ResultFiles.readCapacity(input);
      Path earlier = fileOf.put(summary.binding(), input);
      if (earlier != null) {
        throw refused(
            "CAPACITY",
            input,
            "one search per binding; " + earlier + " is of binding " + summary.binding() + " too");
      }
      byBinding.put(summary.binding(), summary);
    }
    Set<String> slas = new TreeSet<>();
    Set<String> workloads = new TreeSet<>();
    byBinding.values().forEach(s -> slas.add(s.sla() + " (" + s.latency() + " latency)"));
    byBinding.values().forEach(s -> workloads.add(s.properties().getOrDefault("workload", "")));
    if (slas.size() > 1) {
      System.err.println("cost: warning: the searches were for different SLAs: " + slas);
    }
    if (workloads.size() > 1) {
      System.err.println("cost: warning: the searches ran different workloads: " + workloads);
    }
    double throughput =
        ops != null
            ? ops
            : byBinding.values().stream()
                .mapToLong(CapacitySummary::capacityOpsPerSec)
                .max()
                .orElse(0);
    if (throughput <= 0) {
      throw refused(
          "--ops", "absent", "a throughput to price: no search found a rate at which its SLA held");
    }
    Set<String> pricedBindings = new TreeSet<>();
    List<CostModel.Cost> costs = new ArrayList<>();
    for (Pricing.PricedSystem system : prices.systems()) {
      CapacitySummary summary = byBinding.get(system.binding());
      if (summary == null) {
        System.err.println(
            "cost: warning: system "
                + system.name()
                + " is of binding "
                + system.binding()
                + ", and no capacity summary of that binding was given: not priced");
        continue;
      }
      pricedBindings.add(system.binding());
      costs.add(CostModel.cost(prices, system, summary, throughput));
    }
    for (String binding : byBinding.keySet()) {
      if (!pricedBindings.contains(binding)) {
        System.err.println(
            "cost: warning: "
                + fileOf.get(binding)
                + " (binding "
                + binding
                + ") is priced by no system of "
                + pricing);
      }
    }
    print(prices, throughput, costs);
    boolean all = costs.stream().allMatch(CostModel.Cost::priced);
    return (all && !costs.isEmpty() ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }

  private void print(Pricing prices, double throughput, List<CostModel.Cost> costs) {
    System.out.printf(
        Locale.ROOT,
        "cost: %.0f ops/s, prices in %s from %s%s%n",
        throughput,
        prices.currency(),
        pricing,
        prices.source() == null
            ? ""
            : " (" + prices.source() + (prices.date() == null ? "" : ", " + prices.date()) + ")");
    System.out.printf(
        Locale.ROOT,
        "%-24s %-10s %14s %14s %14s  %s%n",
        "system",
        "binding",
        "capacity ops/s",
        "monthly",
        "yearly",
        "sized as");
    for (CostModel.Cost c : costs) {
      System.out.printf(
          Locale.ROOT,
          "%-24s %-10s %14d %14s %14s  %s%n",
          c.system().name(),
          c.system().binding(),
          c.summary().capacityOpsPerSec(),
          c.priced() ? money(c.monthly()) : "-",
          c.priced() ? money(c.yearly()) : "-",
          c.priced()
              ? c.sizedAs() + (c.upfront() > 0 ? ", " + money(c.upfront()) + " upfront" : "")
              : "not priced: " + c.reason());
      if (c.priced()
          && c.system().deployment() instanceof Pricing.DynamoDb
          && c.summary().capacityOpsPerSec() < throughput) {
        System.out.printf(
            Locale.ROOT,
            "%-24s note: sized by units; its SLA (%s) held only up to %d ops/s in the search%n",
            "",
            c.summary().sla(),
            c.summary().capacityOpsPerSec());
      }
    }
    CostModel.Cost cheapest = null;
    for (CostModel.Cost c : costs) {
      if (c.priced()) {
        System.out.printf(
            Locale.ROOT,
            "cost.monthly=%.2f system=%s yearly=%.2f%n",
            c.monthly(),
            c.system().name(),
            c.yearly());
        if (cheapest == null || c.yearly() < cheapest.yearly()) {
          cheapest = c;
        }
      }
    }
    if (cheapest != null && cheapest.yearly() > 0) {
      for (CostModel.Cost c : costs) {
        if (c.priced()) {
          System.out.printf(
              Locale.ROOT,
              "cost.ratio=%.2f system=%s cheapest=%s%n",
              c.yearly() / cheapest.yearly(),
              c.system().name(),
              cheapest.system().name());
        }
      }
    }
  }

  private static String money(double amount) {
    return String.format(Locale.ROOT, "%,.2f", amount);
  }

  private ParameterException refused(String option, Object value, String expected) {
    return new ParameterException(
        command.commandLine(), option + ": " + value + " (expected: " + expected + ")");
  }
}
