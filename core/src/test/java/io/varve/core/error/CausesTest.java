package io.varve.core.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The failure a caller of a future sees: the one that happened, not the future's wrappers. */
class CausesTest {

  @Test
  void unwrap_removes_every_completion_and_execution_wrapper() {
    IllegalStateException failure = new IllegalStateException("table dropped");
    assertThat(
            Causes.unwrap(
                new CompletionException(new ExecutionException(new CompletionException(failure)))))
        .isSameAs(failure);
    assertThat(Causes.unwrap(failure)).isSameAs(failure);
    CompletionException empty = new CompletionException("no cause", null);
    assertThat(Causes.unwrap(empty)).isSameAs(empty);
  }

  @Test
  void join_throws_an_unchecked_failure_as_it_was_and_wraps_a_checked_one() {
    assertThat(Causes.join(CompletableFuture.completedFuture("ok"))).isEqualTo("ok");
    IllegalArgumentException unchecked = new IllegalArgumentException("bad table name");
    assertThatThrownBy(() -> Causes.join(CompletableFuture.failedFuture(unchecked)))
        .isSameAs(unchecked);
    IOException checked = new IOException("socket closed");
    assertThatThrownBy(() -> Causes.join(CompletableFuture.failedFuture(checked)))
        .isInstanceOf(CompletionException.class)
        .hasCauseReference(checked);
  }
}
