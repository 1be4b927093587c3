package io.varve.bench.cli;

import io.varve.bench.cost.CostModel;
import io.varve.bench.cost.CostTable;
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
import java.util.Optional;
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
    Map<String, Path> fileOf = new LinkedHashMap<>();
    List<CapacitySummary> searches = new ArrayList<>();
    for (Path input : inputs) {
      CapacitySummary summary = ResultFiles.readCapacity(input);
      Path earlier = fileOf.put(summary.binding(), input);
      if (earlier != null) {
        throw refused(
            "CAPACITY",
            input,
            "one search per binding; " + earlier + " is of binding " + summary.binding() + " too");
      }
      searches.add(summary);
    }
    CostTable table = CostTable.of(prices, searches, Optional.ofNullable(ops));
    table.warnings().forEach(w -> System.err.println("cost: warning: " + w));
    print(table);
    return (table.allPriced() ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }

  private void print(CostTable table) {
    Pricing prices = table.pricing();
    System.out.printf(
        Locale.ROOT,
        "cost: %.0f ops/s, prices in %s from %s%s%n",
        table.throughput(),
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
    for (CostModel.Cost c : table.costs()) {
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
          && c.summary().capacityOpsPerSec() < table.throughput()) {
        System.out.printf(
            Locale.ROOT,
            "%-24s note: sized by units; its SLA (%s) held only up to %d ops/s in the search%n",
            "",
            c.summary().sla(),
            c.summary().capacityOpsPerSec());
      }
    }
    for (CostModel.Cost c : table.costs()) {
      if (c.priced()) {
        System.out.printf(
            Locale.ROOT,
            "cost.monthly=%.2f system=%s yearly=%.2f%n",
            c.monthly(),
            c.system().name(),
            c.yearly());
      }
    }
    Optional<CostModel.Cost> cheapest = table.cheapest();
    if (cheapest.isPresent() && cheapest.get().yearly() > 0) {
      for (CostModel.Cost c : table.costs()) {
        if (c.priced()) {
          System.out.printf(
              Locale.ROOT,
              "cost.ratio=%.2f system=%s cheapest=%s%n",
              c.yearly() / cheapest.get().yearly(),
              c.system().name(),
              cheapest.get().system().name());
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
