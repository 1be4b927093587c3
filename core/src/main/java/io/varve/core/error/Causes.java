package io.varve.core.error;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The failure inside the wrappers that futures put around it. */
public final class Causes {

  private Causes() {}

  /** {@code t} without its {@link CompletionException} and {@link ExecutionException} wrappers. */
  public static Throwable unwrap(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
