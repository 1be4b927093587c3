package io.varve.core.namespace;

import io.varve.core.error.InvalidFieldException;
import java.util.Locale;

/**
 * A namespace's read/write consistency, as scope (LOCAL: one region, GLOBAL: all regions) and
 * target (EVENTUAL or STRONG). The storage maps it to a CQL consistency level:
 * LOCAL+EVENTUAL = LOCAL_ONE, LOCAL+STRONG = LOCAL_QUORUM, GLOBAL+EVENTUAL = ONE,
 * GLOBAL+STRONG = QUORUM. A write is acknowledged once that many replicas have it in their
 * commit log.
 */
public record Consistency(Scope scope, Target target) {

  public enum Scope { LOCAL, GLOBAL }

  public enum Target { EVENTUAL, STRONG }

  public static final Consistency DEFAULT = new Consistency(Scope.LOCAL, Target.STRONG);

  public static Scope parseScope(String field, String value) {
    if (value == null) {
      throw new InvalidFieldException(field, null, "LOCAL or GLOBAL");
    }
    try {
      return Scope.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidFieldException(field, value, "LOCAL or GLOBAL");
    }
  }

  public static Target parseTarget(String field, String value) {
    if (value == null) {
      throw new InvalidFieldException(field, null, "EVENTUAL or STRONG");
    }
    try {
      return Target.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidFieldException(field, value, "EVENTUAL or STRONG");
    }
  }
}
