package io.varve.local.opensearch;

import io.varve.local.LocalServerException;
import io.varve.local.Product;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the {@code java} of a JDK 21 or later, which OpenSearch 3 needs while Varve itself runs on
 * Java 17. In order: the environment variable {@value #ENVIRONMENT_VARIABLE} (a JDK's home
 * directory, or its {@code bin/java}); the newest JDK 21+ under {@code /usr/lib/jvm}, Temurin first
 * among equals; the running JVM if it is 21 or later.
 */
final class OpenSearchJava {

  /** The environment variable naming the JDK to run OpenSearch with. */
  static final String ENVIRONMENT_VARIABLE = "VARVE_OPENSEARCH_JAVA";

  /** The oldest Java that OpenSearch 3 runs on. */
  static final int MINIMUM_VERSION = 21;

  private static final Pattern JAVA_VERSION =
      Pattern.compile("(?m)^JAVA_VERSION=\"?(?:1\\.)?(\\d+)");

  private OpenSearchJava() {}

  /** The {@code java} to run OpenSearch with, on this machine. */
  static Path locate() {
    return locate(
        System.getenv(ENVIRONMENT_VARIABLE),
        Path.of("/usr/lib/jvm"),
        Path.of(System.getProperty("java.home")));
  }

  /**
   * The {@code java} to run OpenSearch with.
   *
   * @param configured the value of {@value #ENVIRONMENT_VARIABLE}, or null
   * @param jdkRoot the directory holding installed JDKs, like {@code /usr/lib/jvm}
   * @param runningJavaHome the home of the running JVM
   * @throws LocalServerException if the configured JDK is not usable or none is found
   */
  static Path locate(String configured, Path jdkRoot, Path runningJavaHome) {
    if (configured != null && !configured.isBlank()) {
      return configured(Path.of(configured.trim()));
    }
    return installed(jdkRoot)
        .or(
            () ->
                version(runningJavaHome).orElse(0) >= MINIMUM_VERSION
                    ? Optional.of(runningJavaHome.resolve("bin/java"))
                    : Optional.empty())
        .orElseThrow(
            () ->
                new LocalServerException(
                    Product.OPENSEARCH,
                    "OpenSearch 3 needs Java "
                        + MINIMUM_VERSION
                        + " or later, and none was found: "
                        + ENVIRONMENT_VARIABLE
                        + " is not set, "
                        + jdkRoot
                        + " holds no JDK "
                        + MINIMUM_VERSION
                        + "+, and this JVM ("
                        + runningJavaHome
                        + ") is older. Install a JDK "
                        + MINIMUM_VERSION
                        + "+ or set "
                        + ENVIRONMENT_VARIABLE
                        + " to its home directory."));
  }

  /**
   * The Java feature version of a JDK home or of its {@code bin/java}, from its {@code release}
   * file; empty if it has none.
   */
  static OptionalInt version(Path javaHomeOrExecutable) {
    Path home =
        Files.isDirectory(javaHomeOrExecutable)
            ? javaHomeOrExecutable
            : javaHomeOrExecutable.toAbsolutePath().getParent().getParent();
    try {
      Matcher matcher = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
      return matcher.find()
          ? OptionalInt.of(Integer.parseInt(matcher.group(1)))
          : OptionalInt.empty();
    } catch (IOException | RuntimeException e) {
      return OptionalInt.empty();
    }
  }

  /** Fails if a {@code java} runs a Java older than 21, as far as its JDK's release file says. */
  static void requireVersion(Path java, String setting) {
    OptionalInt version = version(java);
    if (version.isPresent() && version.getAsInt() < MINIMUM_VERSION) {
      throw new LocalServerException(
          Product.OPENSEARCH,
          setting
              + ": "
              + java
              + " is Java "
              + version.getAsInt()
              + " (expected: Java "
              + MINIMUM_VERSION
              + " or later, which OpenSearch 3 needs)");
    }
  }

  private static Path configured(Path path) {
    Path java = Files.isDirectory(path) ? path.resolve("bin/java") : path;
    if (!Files.isExecutable(java)) {
      throw new LocalServerException(
          Product.OPENSEARCH,
          ENVIRONMENT_VARIABLE
              + ": "
              + path
              + " (expected: the"
              + " home directory of a JDK "
              + MINIMUM_VERSION
              + "+, or its bin/java; "
              + java
              + " is not an executable file)");
    }
    requireVersion(java, ENVIRONMENT_VARIABLE);
    return java;
  }

  private static Optional<Path> installed(Path jdkRoot) {
    if (!Files.isDirectory(jdkRoot)) {
      return Optional.empty();
    }
    try (Stream<Path> jdks = Files.list(jdkRoot)) {
      return jdks.filter(
              jdk -> !Files.isSymbolicLink(jdk) && Files.isExecutable(jdk.resolve("bin/java")))
          .filter(jdk -> version(jdk).orElse(0) >= MINIMUM_VERSION)
          .max(
              Comparator.<Path>comparingInt(jdk -> version(jdk).orElse(0))
                  .thenComparing(jdk -> jdk.getFileName().toString().startsWith("temurin"))
                  .thenComparing(jdk -> jdk.getFileName().toString()))
          .map(jdk -> jdk.resolve("bin/java"));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
