package io.varve.core.namespace;

import io.varve.core.error.InvalidFieldException;

/**
 * A namespace's read/write consistency, as scope (LOCAL: one region, GLOBAL: all regions) and
 * target (EVENTUAL, STRONG, or READ_YOUR_WRITES, the reference KeyValue text's name, which gets the
 * levels of STRONG). The storage maps it to a CQL consistency level, the same for reads and writes:
 * LOCAL+EVENTUAL = LOCAL_ONE, LOCAL+STRONG (or READ_YOUR_WRITES) = LOCAL_QUORUM, GLOBAL+EVENTUAL =
 * ONE, GLOBAL+STRONG (or READ_YOUR_WRITES) = QUORUM. A write is acknowledged once that many
 * replicas have it in their commit log.
 */
public record Consistency(Scope scope, Target target) {

  public enum Scope {
    LOCAL,
    GLOBAL
  }

  public enum Target {
    EVENTUAL,
    STRONG,
    READ_YOUR_WRITES
  }

  public static final Consistency DEFAULT = new Consistency(Scope.LOCAL, Target.STRONG);

  /**
   * The CQL consistency level of this consistency, by its name in CQL and the drivers ({@code
   * LOCAL_QUORUM}): the same for reads and writes, as the class comment maps it.
   */
  public String cqlLevel() {
    boolean local = scope == Scope.LOCAL;
    if (target != Target.EVENTUAL) { // STRONG and READ_YOUR_WRITES
      return local ? "LOCAL_QUORUM" : "QUORUM";
    }
    return local ? "LOCAL_ONE" : "ONE";
  }

  public static Scope parseScope(String field, String value) {
    return parse(Scope.class, field, value);
  }

  public static Target parseTarget(String field, String value) {
    return parse(Target.class, field, value);
  }

  /** A constant of {@code type} named by {@code value} in any case; errors list the constants. */
  private static <E extends Enum<E>> E parse(Class<E> type, String field, String value) {
    E[] constants = type.getEnumConstants();
    for (E constant : constants) {
      if (value != null && constant.name().equalsIgnoreCase(value)) {
        return constant;
      }
    }
    throw new InvalidFieldException(
        field,
        value,
        java.util.Arrays.stream(constants)
            .map(Enum::name)
            .collect(java.util.stream.Collectors.joining(" or ")));
  }
}
