package io.varve.command.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Captures {@code System.out} and {@code System.err} during each test, for tests that run a command
 * in-process and read what it printed; restores them after. Register it as a field:
 * {@code @RegisterExtension final StandardStreams streams = new StandardStreams();}. Not for tests
 * run in parallel.
 */
public final class StandardStreams implements BeforeEachCallback, AfterEachCallback {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream stdout;
  private PrintStream stderr;

  @Override
  public void beforeEach(ExtensionContext context) {
    stdout = System.out;
    stderr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    System.setOut(stdout);
    System.setErr(stderr);
  }

  /** All the test printed to standard output so far. */
  public String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** All the test printed to standard error so far. */
  public String err() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
