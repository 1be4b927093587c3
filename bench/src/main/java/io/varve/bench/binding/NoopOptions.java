package io.varve.bench.binding;

import io.varve.options.Option;
import io.varve.options.Options;
import io.varve.options.Types;

/** The properties of the {@code noop} binding. */
public final class NoopOptions {

  private static final Options.Builder OPTIONS = Options.builder();

  public static final Option<Integer> CAPACITY =
      OPTIONS
          .option("noop.capacity", Types.integer(0, 100_000_000))
          .defaultValue(0)
          .doc(
              "Operations per second of a modelled server: one queue shared by every thread, each"
                  + " operation done 1/capacity s after the one before it, so that latency grows"
                  + " without bound above this rate. `0`: no model, the loader's own ceiling. For"
                  + " checking the capacity search against a known limit.");

  public static final Options ALL = OPTIONS.build();

  private NoopOptions() {}
}
