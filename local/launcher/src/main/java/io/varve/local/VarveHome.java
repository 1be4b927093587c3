package io.varve.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the root of the Varve checkout, where {@code .varve/} and {@code
 * local/cassandra-dist/target/lib} live.
 */
public final class VarveHome {

  /** The system property that names the Varve home; Maven's failsafe plugin sets it. */
  public static final String PROPERTY = "varve.home";

  private static final Pattern PARENT = Pattern.compile("<parent>.*?</parent>", Pattern.DOTALL);
  private static final Pattern ARTIFACT_ID = Pattern.compile("<artifactId>\\s*([^<\\s]+)");

  private VarveHome() {}

  /**
   * The Varve home: starting from the system property {@value #PROPERTY} if set, else from the
   * working directory, the nearest directory upwards that holds the {@code varve} script or the
   * root {@code pom.xml} (artifactId {@code varve-parent}); the starting directory itself if none
   * does.
   */
  public static Path locate() {
    String property = System.getProperty(PROPERTY, "").trim();
    Path start = Path.of(property.isEmpty() ? "" : property).toAbsolutePath().normalize();
    return rootAbove(start).orElse(start);
  }

  /** The nearest directory from {@code start} upwards that is a Varve checkout's root. */
  public static Optional<Path> rootAbove(Path start) {
    for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
      if (isRoot(dir)) {
        return Optional.of(dir);
      }
    }
    return Optional.empty();
  }

  private static boolean isRoot(Path dir) {
    Path pom = dir.resolve("pom.xml");
    if (!Files.isRegularFile(pom)) {
      return false;
    }
    if (Files.isRegularFile(dir.resolve("varve"))) {
      return true;
    }
    try {
      // Child poms name varve-parent too, inside <parent>; only the project's own id counts.
      Matcher own = ARTIFACT_ID.matcher(PARENT.matcher(Files.readString(pom)).replaceFirst(""));
      return own.find() && own.group(1).equals("varve-parent");
    } catch (IOException e) {
      return false;
    }
  }
}
