package io.varve.verify.reliability;

/**
 * One phase of the reliability suite: runs on the shared environment and reports under its own key
 * prefix.
 */
public interface Phase {

  /** The phase's name, the prefix of its keys and its name in {@code --phases}. */
  String name();

  /** Runs the phase; failed checks go to {@code results}, an exception fails the phase. */
  void run(VerifyEnvironment env, Results results) throws Exception;
}
