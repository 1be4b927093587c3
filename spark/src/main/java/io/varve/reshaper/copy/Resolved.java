package io.varve.reshaper.copy;

import java.io.Serializable;

/**
 * The outcome so far of the source rows that land on one target key: the row that wins, how many
 * source rows it was chosen from, or the conflict that stops the job under {@code
 * reshape.onConflict: fail}. What a shuffle carries per target key, so both the count of rows read
 * and a conflict reach the driver as data.
 *
 * @param row the winner, null when {@code conflict} is set
 * @param sourceRows how many source rows were resolved into this one
 * @param conflict the conflict, described, or null
 */
public record Resolved(TargetRow row, long sourceRows, String conflict) implements Serializable {

  /** One source row, not yet compared with any other. */
  static Resolved of(TargetRow row) {
    return new Resolved(row, 1, null);
  }
}
