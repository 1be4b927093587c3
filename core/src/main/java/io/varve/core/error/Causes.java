package io.varve.core.error;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
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

  /**
   * Waits for {@code stage} and returns its value; its failure is thrown as it was, without the
   * {@link CompletionException} around it, when it is unchecked (wrapped otherwise).
   */
  public static <T> T join(CompletionStage<T> stage) {
    try {
      return stage.toCompletableFuture().join();
    } catch (CompletionException e) {
      Throwable cause = unwrap(e);
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}
