package io.varve.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VarveHomeTest {

  @TempDir Path dir;

  @Test
  void finds_the_root_pom_from_a_module_below_it_past_poms_that_name_it_as_parent()
      throws IOException {
    Path root = Files.createDirectories(dir.resolve("varve"));
    Files.writeString(
        root.resolve("pom.xml"),
        "<project><groupId>io.varve</groupId><artifactId>varve-parent</artifactId></project>");
    Path module = Files.createDirectories(root.resolve("local/launcher"));
    Files.writeString(
        root.resolve("local/pom.xml"),
        "<project><parent><groupId>io.varve"
            + "</groupId><artifactId>varve-parent</artifactId></parent>"
            + "<artifactId>varve-local-parent</artifactId></project>");

    assertThat(VarveHome.rootAbove(module)).contains(root);
    assertThat(VarveHome.rootAbove(root.resolve("local"))).contains(root);
  }

  @Test
  void a_directory_with_the_varve_script_and_a_pom_is_a_root() throws IOException {
    Path root = Files.createDirectories(dir.resolve("checkout"));
    Files.writeString(root.resolve("pom.xml"), "<project/>");
    Files.writeString(root.resolve("varve"), "#!/bin/sh\n");

    assertThat(VarveHome.rootAbove(Files.createDirectories(root.resolve("a/b")))).contains(root);
  }

  @Test
  void an_unrelated_maven_project_is_not_a_root() throws IOException {
    Files.writeString(dir.resolve("pom.xml"), "<project><artifactId>other</artifactId></project>");

    assertThat(VarveHome.rootAbove(dir)).isEmpty();
  }
}
