package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReshaperProcessTest {

  @TempDir Path home;

  @Test
  void under_a_release_runs_the_jars_its_classpath_file_names_with_its_jvm_options()
      throws IOException {
    Files.createDirectories(home.resolve("lib"));
    Files.createDirectories(home.resolve("conf"));
    Files.writeString(
        home.resolve("lib/reshaper.classpath"), "varve-reshaper.jar\nspark-core.jar\n\n");
    Files.writeString(
        home.resolve("conf/reshaper-jvm-options"),
        "# module options\n--add-opens=java.base/java.lang=ALL-UNNAMED\n");

    List<String> command = ReshaperProcess.command(home, List.of("migrate", "--config", "j.yaml"));

    assertThat(command)
        .containsSubsequence(
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "-Dvarve.home=" + home,
            "-cp",
            home.resolve("lib/varve-reshaper.jar")
                + File.pathSeparator
                + home.resolve("lib/spark-core.jar"),
            "io.varve.reshaper.cli.ReshaperCli",
            "migrate",
            "--config",
            "j.yaml")
        .doesNotContain("# module options");
  }

  @Test
  void under_a_checkout_without_the_built_reshaper_says_how_to_build_it() {
    assertThatThrownBy(() -> ReshaperProcess.command(home, List.of("migrate")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("the reshaper is not built")
        .hasMessageContaining("./varve builds it");
  }
}
