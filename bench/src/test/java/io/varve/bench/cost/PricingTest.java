package io.varve.bench.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.engine.BenchInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pricing files: the example that ships reads, and bad ones are refused naming the key. */
class PricingTest {

  @TempDir Path dir;

  static final String GOOD =
      """
      currency: USD
      systems:
        - name: c
          binding: cql
          nodes: {pricePerHour: 1.5}
        - name: d
          binding: dynamodb
          dynamodb: {mode: provisioned, writeUnitHour: 0.00065, readUnitHour: 0.00013}
      """;

  @Test
  void the_example_pricing_file_reads_with_every_mode() {
    Path example = Path.of("../workloads/pricing-example.yaml"); // the module is the working dir
    Pricing pricing = Pricing.read(example);
    assertThat(pricing.currency()).isEqualTo("USD");
    assertThat(pricing.hoursPerMonth()).isEqualTo(730);
    assertThat(pricing.source()).isNotBlank();
    assertThat(pricing.systems())
        .extracting(Pricing.PricedSystem::binding)
        .contains("cql", "varve-kv", "dynamodb");
    assertThat(pricing.systems())
        .filteredOn(s -> s.deployment() instanceof Pricing.DynamoDb)
        .extracting(s -> ((Pricing.DynamoDb) s.deployment()).mode())
        .containsExactlyInAnyOrder(
            Pricing.Mode.PROVISIONED, Pricing.Mode.RESERVED, Pricing.Mode.ON_DEMAND);
  }

  @Test
  void defaults_fill_what_a_file_leaves_out() throws IOException {
    Pricing pricing = Pricing.read(write(GOOD));
    assertThat(pricing.hoursPerMonth()).isEqualTo(730);
    Pricing.Nodes nodes = (Pricing.Nodes) pricing.systems().get(0).deployment();
    assertThat(nodes.measuredNodes()).isEqualTo(1);
    assertThat(nodes.minimum()).isEqualTo(1);
    assertThat(((Pricing.DynamoDb) pricing.systems().get(1).deployment()).utilization())
        .isEqualTo(1.0);
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "pricePerHour: 1.5|pricePerHour: -1|systems[0].nodes.pricePerHour is -1",
        "pricePerHour: 1.5|pricePerHour: x|systems[0].nodes.pricePerHour is x",
        "pricePerHour: 1.5|pricePerHour: 1, measuredNodes: 0|systems[0].nodes.measuredNodes is 0",
        "pricePerHour: 1.5|pricePerHour: 1, minimum: 2.5|systems[0].nodes.minimum is 2.5",
        "pricePerHour: 1.5|pricePerHour: 1, price: 2|systems[0].nodes.price is not a key here",
        "nodes: {pricePerHour: 1.5}|nodes: {}|systems[0].nodes.pricePerHour is missing",
        "mode: provisioned|mode: spot|systems[1].dynamodb.mode is spot (expected: provisioned, reserved or on-demand)",
        "writeUnitHour: 0.00065|utilization: 0, writeUnitHour: 1|systems[1].dynamodb.utilization is 0",
        "mode: provisioned|mode: on-demand|systems[1].dynamodb.writeUnitHour is not a key here",
        "currency: USD|currency: ''|currency is  (expected: a text that is not empty)",
        "currency: USD|currency: USD\\nhoursPerMonth: 0|hoursPerMonth is 0 (expected: a number from 1 to 744)",
        "currency: USD|currency: USD\\nprices: 3|prices is not a key here",
        "name: d|name: c|systems[1].name is c (expected: a name no other system has)",
        "binding: cql|binding: 7|systems[0].binding is 7 (expected: a text that is not empty)",
      })
  void a_bad_pricing_file_is_refused_naming_the_key(String from, String to, String message)
      throws IOException {
    String text = GOOD.replaceFirst(java.util.regex.Pattern.quote(from), to.replace("\\n", "\n"));
    assertThat(text).isNotEqualTo(GOOD);
    Path file = write(text);
    assertThatThrownBy(() -> Pricing.read(file))
        .isInstanceOf(BenchInputException.class)
        .hasMessageStartingWith("--pricing " + file + ": ")
        .hasMessageContaining(message);
  }

  @Test
  void both_or_neither_deployment_is_refused() throws IOException {
    Path both =
        write(
            GOOD.replace(
                "nodes: {pricePerHour: 1.5}",
                "nodes: {pricePerHour: 1.5}\n    dynamodb: {mode: provisioned}"));
    assertThatThrownBy(() -> Pricing.read(both))
        .hasMessageContaining("systems[0] (c): give exactly one of nodes or dynamodb");
    Path none = write("systems: []\ncurrency: USD\n");
    assertThatThrownBy(() -> Pricing.read(none)).hasMessageContaining("systems is []");
    Path notYaml = write("systems: [\n");
    assertThatThrownBy(() -> Pricing.read(notYaml)).hasMessageContaining("is not valid YAML");
    assertThatThrownBy(() -> Pricing.read(dir.resolve("absent.yaml")))
        .hasMessageContaining("cannot read it");
  }

  private Path write(String text) throws IOException {
    Path file = Files.createTempFile(dir, "pricing", ".yaml");
    return Files.writeString(file, text);
  }
}
