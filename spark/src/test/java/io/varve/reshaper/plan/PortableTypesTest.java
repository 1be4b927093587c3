package io.varve.reshaper.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.internal.core.type.UserDefinedTypeBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A plan's types reach executors whole, vectors and the types that hold them included. */
class PortableTypesTest {

  @Test
  void vectors_collections_tuples_and_udts_come_back_equal() throws Exception {
    DataType udt =
        new UserDefinedTypeBuilder(
                CqlIdentifier.fromInternal("ks"), CqlIdentifier.fromInternal("a"))
            .withField(CqlIdentifier.fromInternal("v"), DataTypes.vectorOf(DataTypes.FLOAT, 3))
            .withField(CqlIdentifier.fromInternal("Zip"), DataTypes.INT)
            .frozen()
            .build();
    List<DataType> types =
        List.of(
            DataTypes.vectorOf(DataTypes.FLOAT, 3),
            DataTypes.listOf(DataTypes.vectorOf(DataTypes.DOUBLE, 2), true),
            DataTypes.setOf(DataTypes.TEXT),
            DataTypes.mapOf(DataTypes.TEXT, DataTypes.frozenListOf(DataTypes.INT)),
            DataTypes.tupleOf(DataTypes.INT, DataTypes.vectorOf(DataTypes.FLOAT, 1)),
            udt,
            DataTypes.DURATION);
    TargetColumn column = new TargetColumn("v", types.get(0), 2, null, -1, -1);
    SourceScan scan = new SourceScan("SELECT", 1, List.of("a", "b"), types);

    assertThat(roundTrip(column)).isEqualTo(column);
    SourceScan back = roundTrip(scan);
    assertThat(back.types()).isEqualTo(types);
    assertThat(back.columns()).isEqualTo(scan.columns());
    assertThat(back.types().get(5).asCql(true, true)).isEqualTo(udt.asCql(true, true));
  }

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T value) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    }
  }
}
