package io.varve.local.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.local.LocalServerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenSearchJavaTest {

  @TempDir Path root;

  @Test
  void picks_the_newest_jdk_21_or_later_under_the_jdk_directory() throws IOException {
    jdk("java-17-openjdk-amd64", "17.0.15");
    jdk("temurin-21-jdk-amd64", "21.0.7");
    Path newest = jdk("temurin-25-jdk-amd64", "25.0.3");

    assertThat(OpenSearchJava.locate(null, root, root.resolve("java-17-openjdk-amd64")))
        .isEqualTo(newest.resolve("bin/java"));
  }

  @Test
  void prefers_temurin_among_jdks_of_one_version() throws IOException {
    jdk("openjdk-25", "25.0.1");
    Path temurin = jdk("temurin-25-jdk-amd64", "25.0.3");

    assertThat(OpenSearchJava.locate("", root, root.resolve("none")))
        .isEqualTo(temurin.resolve("bin/java"));
  }

  @Test
  void the_environment_variable_wins_as_a_home_or_as_its_java() throws IOException {
    jdk("temurin-25-jdk-amd64", "25.0.3");
    Path chosen = jdk("elsewhere-21", "21");

    assertThat(OpenSearchJava.locate(chosen.toString(), root, root))
        .isEqualTo(chosen.resolve("bin/java"));
    assertThat(OpenSearchJava.locate(chosen.resolve("bin/java").toString(), root, root))
        .isEqualTo(chosen.resolve("bin/java"));
  }

  @Test
  void rejects_an_environment_variable_naming_an_old_or_missing_java() throws IOException {
    Path old = jdk("java-17-openjdk-amd64", "17.0.15");

    assertThatThrownBy(() -> OpenSearchJava.locate(old.toString(), root, root))
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining("VARVE_OPENSEARCH_JAVA: " + old.resolve("bin/java") + " is Java 17")
        .hasMessageContaining("expected: Java 21 or later");
    assertThatThrownBy(() -> OpenSearchJava.locate("/no/such/jdk", root, root))
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining(
            "VARVE_OPENSEARCH_JAVA: /no/such/jdk (expected: the home directory" + " of a JDK 21+");
  }

  @Test
  void falls_back_to_the_running_jvm_if_it_is_recent_enough() throws IOException {
    Path running = jdk("running", "22.0.2");
    Path other = Files.createDirectories(root.resolve("other-root"));

    assertThat(OpenSearchJava.locate(null, other, running)).isEqualTo(running.resolve("bin/java"));
  }

  @Test
  void says_a_jdk_21_is_needed_when_none_is_found() throws IOException {
    Path old = jdk("java-17-openjdk-amd64", "17.0.15");

    assertThatThrownBy(() -> OpenSearchJava.locate(null, root, old))
        .isInstanceOf(LocalServerException.class)
        .hasMessageContaining("OpenSearch 3 needs Java 21 or later, and none was found")
        .hasMessageContaining("set VARVE_OPENSEARCH_JAVA to its home directory");
  }

  private Path jdk(String name, String version) throws IOException {
    Path home = Files.createDirectories(root.resolve(name));
    Files.writeString(
        home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version + "\"\n");
    Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return home;
  }
}
