package io.varve.reshaper.plan;

import static io.varve.reshaper.plan.TableSchema.names;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.TableSchema.Column;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The first step of a plan: which source column fills which target column (after {@code renames}
 * and {@code drop}), and the encoded {@code constants} of the others. Checks that every copied
 * column reaches a target column of the same type. A column computed per row (a slice's buckets,
 * {@link SliceKeys}) is neither copied from the source column of its name nor filled otherwise.
 *
 * @param sourceToTarget each copied source column and the target column it fills, in source column
 *     order
 * @param constants target columns filled with a constant, encoded
 * @param computed target columns computed per row, whose source columns of the same name are not
 *     copied
 */
record ColumnMapping(
    Map<CqlIdentifier, CqlIdentifier> sourceToTarget,
    Map<CqlIdentifier, byte[]> constants,
    Set<CqlIdentifier> computed) {

  static ColumnMapping of(JobConfig config, TableSchema source, TableSchema target) {
    Set<CqlIdentifier> computed = SliceKeys.computed(config);
    Map<CqlIdentifier, CqlIdentifier> renames = renames(config, source, target);
    Set<CqlIdentifier> dropped = dropped(config, source, renames);
    Map<CqlIdentifier, CqlIdentifier> mapping = new LinkedHashMap<>();
    Map<CqlIdentifier, CqlIdentifier> filled = new LinkedHashMap<>();
    for (Column c : source.columns()) {
      if (dropped.contains(c.name()) || computed.contains(c.name())) {
        continue;
      }
      CqlIdentifier to = renames.getOrDefault(c.name(), c.name());
      Column t =
          target
              .column(to)
              .orElseThrow(
                  () ->
                      new ConfigException(
                          "source column " + c.cql(),
                          "no target column " + to.asCql(true),
                          "a column of target table "
                              + config.target().qualifiedTable()
                              + " ("
                              + names(target.columns())
                              + "): add a renames entry, or list it under drop"));
      if (!sameType(c.type(), t.type())) {
        throw new ConfigException(
            "target column " + t.cql(),
            t.type().asCql(true, true),
            "the type of source column "
                + c.cql()
                + ", "
                + c.type().asCql(true, true)
                + " (type mismatch)");
      }
      CqlIdentifier other = filled.put(to, c.name());
      if (other != null) {
        throw new ConfigException(
            "target column " + t.cql(),
            "filled by source columns " + other.asCql(true) + " and " + c.cql(),
            "one source column");
      }
      mapping.put(c.name(), to);
    }
    return new ColumnMapping(mapping, constants(config, target, mapping), computed);
  }

  /** The source column that fills {@code targetColumn}, or null. */
  CqlIdentifier sourceOf(CqlIdentifier targetColumn) {
    for (var e : sourceToTarget.entrySet()) {
      if (e.getValue().equals(targetColumn)) {
        return e.getKey();
      }
    }
    return null;
  }

  private static Map<CqlIdentifier, CqlIdentifier> renames(
      JobConfig config, TableSchema source, TableSchema target) {
    Map<CqlIdentifier, CqlIdentifier> renames = new LinkedHashMap<>();
    List<JobConfig.Rename> list = config.renames();
    for (int i = 0; i < list.size(); i++) {
      JobConfig.Rename r = list.get(i);
      CqlIdentifier from = CqlIdentifier.fromCql(r.from());
      CqlIdentifier to = CqlIdentifier.fromCql(r.to());
      if (source.column(from).isEmpty()) {
        throw new ConfigException(
            "renames[" + i + "].from",
            r.from(),
            "a column of source table "
                + config.source().qualifiedTable()
                + ": "
                + names(source.columns()));
      }
      if (target.column(to).isEmpty()) {
        throw new ConfigException(
            "renames[" + i + "].to",
            r.to(),
            "a column of target table "
                + config.target().qualifiedTable()
                + ": "
                + names(target.columns()));
      }
      if (renames.put(from, to) != null) {
        throw new ConfigException(
            "renames[" + i + "].from", r.from(), "a column renamed only once");
      }
    }
    return renames;
  }

  private static Set<CqlIdentifier> dropped(
      JobConfig config, TableSchema source, Map<CqlIdentifier, CqlIdentifier> renames) {
    Set<CqlIdentifier> dropped = new HashSet<>();
    for (int i = 0; i < config.drop().size(); i++) {
      CqlIdentifier d = CqlIdentifier.fromCql(config.drop().get(i));
      if (source.column(d).isEmpty()) {
        throw new ConfigException(
            "drop[" + i + "]",
            config.drop().get(i),
            "a column of source table "
                + config.source().qualifiedTable()
                + ": "
                + names(source.columns()));
      }
      if (renames.containsKey(d)) {
        throw new ConfigException(
            "drop[" + i + "]", config.drop().get(i), "a column that is not also renamed");
      }
      dropped.add(d);
    }
    return dropped;
  }

  private static Map<CqlIdentifier, byte[]> constants(
      JobConfig config, TableSchema target, Map<CqlIdentifier, CqlIdentifier> mapping) {
    Map<CqlIdentifier, byte[]> encoded = new LinkedHashMap<>();
    config
        .constants()
        .forEach(
            (name, literal) -> {
              CqlIdentifier id = CqlIdentifier.fromCql(name);
              Column t =
                  target
                      .column(id)
                      .orElseThrow(
                          () ->
                              new ConfigException(
                                  "constants." + name,
                                  literal,
                                  "a column of target table "
                                      + config.target().qualifiedTable()
                                      + ": "
                                      + names(target.columns())));
              if (mapping.containsValue(id)) {
                throw new ConfigException(
                    "constants." + name,
                    literal,
                    "a target column that no source column fills already");
              }
              encoded.put(id, encode(t.type(), name, literal));
            });
    return encoded;
  }

  /** A constant's CQL literal, encoded; a string may be written without its quotes. */
  static byte[] encode(DataType type, String name, String literal) {
    TypeCodec<Object> codec = CodecRegistry.DEFAULT.codecFor(type);
    Object value;
    try {
      value = codec.parse(literal);
    } catch (RuntimeException first) {
      try {
        value = codec.parse("'" + literal.replace("'", "''") + "'");
      } catch (RuntimeException second) {
        throw new ConfigException(
            "constants." + name, literal, "a CQL literal of type " + type.asCql(true, true));
      }
    }
    ByteBuffer bytes = codec.encode(value, ProtocolVersion.DEFAULT);
    byte[] out = new byte[bytes.remaining()];
    bytes.duplicate().get(out);
    return out;
  }

  private static boolean sameType(DataType a, DataType b) {
    if (a instanceof UserDefinedType ua && b instanceof UserDefinedType ub) {
      return ua.getFieldNames().equals(ub.getFieldNames())
          && ua.getFieldTypes().equals(ub.getFieldTypes())
          && ua.isFrozen() == ub.isFrozen();
    }
    return a.equals(b);
  }
}
