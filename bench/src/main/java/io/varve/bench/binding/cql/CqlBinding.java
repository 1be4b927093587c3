package io.varve.bench.binding.cql;

import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.bindMarker;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.deleteFrom;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.insertInto;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.selectFrom;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.querybuilder.QueryBuilder;
import com.datastax.oss.driver.api.querybuilder.insert.RegularInsert;
import com.datastax.oss.driver.api.querybuilder.select.Select;
import com.datastax.oss.driver.api.querybuilder.update.UpdateStart;
import com.datastax.oss.driver.api.querybuilder.update.UpdateWithAssignments;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB's {@code usertable} on Apache Cassandra or ScyllaDB through the ScyllaDB Java driver:
 * prepared statements only, token-aware (and on ScyllaDB shard-aware) routing, one session shared
 * by all client threads. Properties are YCSB's cassandra-cql binding's, plus {@code
 * cassandra.create}; see docs/bench.md.
 */
public final class CqlBinding extends DB {
  private static final String KEY = "y_id";

  private CqlConnection connection;
  private final Map<Set<String>, PreparedStatement> reads = new ConcurrentHashMap<>();
  private final Map<Set<String>, PreparedStatement> scans = new ConcurrentHashMap<>();
  private final Map<Set<String>, PreparedStatement> inserts = new ConcurrentHashMap<>();
  private final Map<Set<String>, PreparedStatement> updates = new ConcurrentHashMap<>();
  private PreparedStatement delete;
  private String table;

  @Override
  public void init() throws DBException {
    connection = CqlConnection.acquire(getProperties());
    table = connection.table();
    delete =
        connection
            .session()
            .prepare(
                deleteFrom(connection.keyspace(), table)
                    .whereColumn(KEY)
                    .isEqualTo(bindMarker())
                    .build());
  }

  @Override
  public void cleanup() throws DBException {
    if (connection != null) {
      connection.release();
      connection = null;
    }
  }

  @Override
  public Status read(
      String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      PreparedStatement ps =
          reads.computeIfAbsent(
              fieldSet(fields),
              f ->
                  connection
                      .session()
                      .prepare(select(f).whereColumn(KEY).isEqualTo(bindMarker()).build()));
      Row row = connection.session().execute(read(ps.bind(key))).one();
      if (row == null) {
        return Status.NOT_FOUND;
      }
      copy(row, result);
      return Status.OK;
    } catch (DriverException e) {
      return CqlErrors.status(e);
    }
  }

  @Override
  public Status scan(
      String tableName,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      PreparedStatement ps =
          scans.computeIfAbsent(
              fieldSet(fields),
              f ->
                  connection
                      .session()
                      .prepare(
                          select(f)
                              .whereToken(KEY)
                              .isGreaterThanOrEqualTo(QueryBuilder.raw("token(?)"))
                              .limit(bindMarker())
                              .build()));
      ResultSet rows = connection.session().execute(read(ps.bind(startkey, recordcount)));
      for (Row row : rows) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        copy(row, values);
        result.add(values);
      }
      return Status.OK;
    } catch (DriverException e) {
      return CqlErrors.status(e);
    }
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    try {
      Set<String> fields = fieldSet(values.keySet());
      PreparedStatement ps =
          updates.computeIfAbsent(
              fields,
              f -> {
                UpdateStart start = QueryBuilder.update(connection.keyspace(), table);
                UpdateWithAssignments assignments = null;
                for (String field : f) {
                  assignments =
                      assignments == null
                          ? start.setColumn(field, bindMarker())
                          : assignments.setColumn(field, bindMarker());
                }
                return connection
                    .session()
                    .prepare(assignments.whereColumn(KEY).isEqualTo(bindMarker()).build());
              });
      List<Object> bound = new ArrayList<>();
      fields.forEach(f -> bound.add(values.get(f).toString()));
      bound.add(key);
      connection.session().execute(write(ps.bind(bound.toArray())));
      return Status.OK;
    } catch (DriverException e) {
      return CqlErrors.status(e);
    }
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    try {
      Set<String> fields = fieldSet(values.keySet());
      PreparedStatement ps =
          inserts.computeIfAbsent(
              fields,
              f -> {
                RegularInsert insert =
                    insertInto(connection.keyspace(), table).value(KEY, bindMarker());
                for (String field : f) {
                  insert = insert.value(field, bindMarker());
                }
                return connection.session().prepare(insert.build());
              });
      List<Object> bound = new ArrayList<>();
      bound.add(key);
      fields.forEach(f -> bound.add(values.get(f).toString()));
      connection.session().execute(write(ps.bind(bound.toArray())));
      return Status.OK;
    } catch (DriverException e) {
      return CqlErrors.status(e);
    }
  }

  @Override
  public Status delete(String tableName, String key) {
    try {
      connection.session().execute(write(delete.bind(key)));
      return Status.OK;
    } catch (DriverException e) {
      return CqlErrors.status(e);
    }
  }

  private Select select(Set<String> fields) {
    var start = selectFrom(connection.keyspace(), table);
    return fields.isEmpty() ? start.all() : start.columns(fields.toArray(String[]::new));
  }

  private BoundStatement read(BoundStatement statement) {
    return statement.setConsistencyLevel(connection.readConsistency()).setIdempotent(true);
  }

  private BoundStatement write(BoundStatement statement) {
    return statement.setConsistencyLevel(connection.writeConsistency()).setIdempotent(true);
  }

  /** The requested fields in a stable order, checked as identifiers (empty = all). */
  private static Set<String> fieldSet(Set<String> fields) {
    if (fields == null) {
      return Set.of();
    }
    Set<String> sorted = new TreeSet<>(fields);
    for (String f : sorted) {
      if (!io.varve.bench.binding.BindingOptions.isIdentifier(f)) {
        throw new IllegalArgumentException("field name " + f + " is not a valid column name");
      }
    }
    return sorted;
  }

  private static void copy(Row row, Map<String, ByteIterator> result) {
    for (ColumnDefinition column : row.getColumnDefinitions()) {
      String name = column.getName().asInternal();
      if (!name.equals(KEY)) {
        String value = row.getString(column.getName());
        if (value != null) {
          result.put(name, new StringByteIterator(value));
        }
      }
    }
  }
}
