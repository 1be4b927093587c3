package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.cassandra.session.CassandraCluster;
import io.varve.core.error.InvalidFieldException;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code cassandra.clusters}: the clusters other than the default one, refused at start when wrong.
 */
class ClusterSettingsTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static ServerSettings parse(String yaml) {
    try {
      return ServerSettings.parse(YAML.readTree(yaml));
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void without_clusters_there_is_only_the_default_cluster() {
    assertThat(ServerSettings.defaults().clusters()).isEmpty();
  }

  @Test
  void a_cluster_takes_its_own_address_credentials_tls_and_replication_and_the_defaults_timeouts() {
    ServerSettings s =
        parse(
            """
            cassandra:
              requestTimeout: 7s
              replication: {class: SimpleStrategy, replication_factor: 1}
              clusters:
                - name: analytics
                  contactPoints: ["10.0.5.11:9142", "10.0.6.11"]
                  localDatacenter: eu-west-1
                  username: varve
                  password: secret
                  tls: {truststore: /etc/varve/a.p12, truststorePassword: pw}
                  replication: {class: NetworkTopologyStrategy, eu-west-1: 3}
                - name: cold
                  contactPoints: ["10.0.9.1"]
                  localDatacenter: dc9
            """);
    assertThat(s.clusters())
        .extracting(CassandraCluster::name)
        .containsExactly("analytics", "cold");
    var analytics = s.clusters().get(0).settings();
    assertThat(analytics.contactPoints())
        .extracting(a -> a.getHostString() + ":" + a.getPort())
        .containsExactly("10.0.5.11:9142", "10.0.6.11:9042");
    assertThat(analytics.localDatacenter()).isEqualTo("eu-west-1");
    assertThat(analytics.username()).contains("varve");
    assertThat(analytics.tls())
        .hasValueSatisfying(t -> assertThat(t.hostnameValidation()).isTrue());
    assertThat(analytics.replication())
        .isEqualTo(Map.of("class", "NetworkTopologyStrategy", "eu-west-1", "3"));
    assertThat(analytics.requestTimeout()).isEqualTo(java.time.Duration.ofSeconds(7));
    assertThat(s.clusters().get(1).settings().replication())
        .as("the default cluster's when absent")
        .isEqualTo(s.cassandra().replication());
    assertThat(s.clusters().get(1).settings().tls()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "[{name: a, contactPoints: [h1], localDatacenter: d}, {name: a, contactPoints: [h2],"
            + " localDatacenter: d}] | cassandra.clusters[1].name: \"a\" (expected: a name not used"
            + " by cassandra.clusters[0].name)",
        "[{name: a, localDatacenter: d}] | cassandra.clusters[0].contactPoints: missing",
        "[{name: a, contactPoints: [], localDatacenter: d}] | cassandra.clusters[0].contactPoints:"
            + " missing",
        "[{contactPoints: [h], localDatacenter: d}] | cassandra.clusters[0].name: missing",
        "[{name: default, contactPoints: [h], localDatacenter: d}] | cassandra.clusters[0].name:"
            + " \"default\" (expected: another name",
        "[{name: a, contactPoints: [h]}] | cassandra.clusters[0].localDatacenter: missing",
        "[{name: 'a b', contactPoints: [h], localDatacenter: d}] | cassandra.clusters[0].name",
        "[{name: a, contactPoints: [h], localDatacenter: d, contactPoint: [x]}] |"
            + " cassandra.clusters[0].contactPoint",
        "[{name: a, contactPoints: [h], localDatacenter: d, tls: {keystore: /k}}] |"
            + " cassandra.clusters[0].tls.truststore: missing",
      })
  void a_duplicate_or_unknown_key_or_a_cluster_without_contact_points_is_refused_naming_the_key(
      String clusters, String message) {
    assertThatThrownBy(() -> parse("cassandra:\n  clusters: " + clusters + "\n"))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageStartingWith(message);
  }
}
