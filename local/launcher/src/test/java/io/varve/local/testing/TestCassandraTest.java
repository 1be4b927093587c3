package io.varve.local.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class TestCassandraTest {

  @Test
  void an_external_server_is_given_as_host_and_port() {
    assertThat(TestCassandra.parse("127.0.0.2:9142"))
        .isEqualTo(new InetSocketAddress("127.0.0.2", 9142));
  }

  @Test
  void the_port_defaults_to_cql_standard_port() {
    assertThat(TestCassandra.parse("127.0.0.2").getPort()).isEqualTo(9042);
  }

  @Test
  void a_malformed_address_names_the_property() {
    assertThatThrownBy(() -> TestCassandra.parse(":9042"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("varve.test.cassandra: :9042");
  }
}
