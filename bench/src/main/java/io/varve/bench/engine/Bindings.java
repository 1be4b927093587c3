package io.varve.bench.engine;

import java.util.Map;
import java.util.TreeMap;
import site.ycsb.DB;

/** The bindings known by name; any other name is taken as the class name of a YCSB DB. */
public final class Bindings {
  private static final Map<String, String> BY_NAME =
      new TreeMap<>(
          Map.of(
              "cql", "io.varve.bench.binding.cql.CqlBinding",
              "dynamodb", "io.varve.bench.binding.dynamodb.DynamoDbBinding",
              "varve", "io.varve.bench.binding.varve.VarveBinding",
              "varve-kv", "io.varve.bench.binding.varve.KeyValueBinding",
              "noop", "io.varve.bench.binding.NoopBinding"));

  private Bindings() {}

  /** Names accepted on the command line. */
  public static java.util.Set<String> names() {
    return BY_NAME.keySet();
  }

  /** The class behind a binding name (or the name itself when it is a class name). */
  public static String className(String binding) {
    return BY_NAME.getOrDefault(binding, binding);
  }

  /** A new, uninitialised instance of the binding. */
  public static DB newInstance(String binding) {
    String className = className(binding);
    try {
      Object db = Class.forName(className).getDeclaredConstructor().newInstance();
      if (db instanceof DB ycsbDb) {
        return ycsbDb;
      }
      throw new BenchInputException(
          "binding " + binding + ": " + className + " is not a site.ycsb.DB");
    } catch (ClassNotFoundException e) {
      throw new BenchInputException(
          "binding "
              + binding
              + " is not known: expected one of "
              + names()
              + " or the class name of a site.ycsb.DB on the classpath");
    } catch (ReflectiveOperationException e) {
      throw new BenchException("binding " + binding + ": cannot create " + className + ": " + e, e);
    }
  }
}
