package io.varve.reshaper;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tests run with the JVM options that `varve migrate` reads from spark/jvm-options. */
class JvmOptionsTest {
  @Test
  void tests_run_with_every_option_of_the_jvm_options_file() throws Exception {
    List<String> options =
        Files.readAllLines(Path.of("jvm-options")).stream()
            .map(String::trim)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();
    assertThat(options)
        .contains(
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED");
    assertThat(ManagementFactory.getRuntimeMXBean().getInputArguments()).containsAll(options);
  }
}
