package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Limits;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ServerSettingsTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static ServerSettings parse(String yaml) {
    try {
      return ServerSettings.parse(YAML.readTree(yaml));
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void defaults_bind_to_localhost_without_tls_or_authentication() {
    ServerSettings d = ServerSettings.defaults();

    assertThat(d.host()).isEqualTo("127.0.0.1");
    assertThat(d.port()).isEqualTo(8080);
    assertThat(d.tls()).isEmpty();
    assertThat(d.auth().enabled()).isFalse();
    assertThat(d.readFanout()).isEqualTo(8);
    assertThat(d.maxReadFanout()).isEqualTo(32);
    assertThat(d.sliceMaintenanceInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.limits()).isEqualTo(Limits.DEFAULT);
  }

  @Test
  void default_cassandra_is_a_local_node_with_replication_factor_one() {
    var c = ServerSettings.defaults().cassandra();

    assertThat(c.contactPoints()).containsExactly(new InetSocketAddress("127.0.0.1", 9042));
    assertThat(c.localDatacenter()).isEqualTo("datacenter1");
    assertThat(c.username()).isEmpty();
    assertThat(c.password()).isEmpty();
    assertThat(c.tls()).isEmpty();
    assertThat(c.compression()).isEqualTo("none");
    assertThat(c.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.schemaTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.metadataKeyspace()).isEqualTo("varve");
    assertThat(c.replication())
        .isEqualTo(Map.of("class", "SimpleStrategy", "replication_factor", "1"));
    assertThat(c.maxInFlightWrites()).isEqualTo(1024);
    assertThat(c.compressionThreshold()).isEqualTo(4096);
  }

  @Test
  void an_empty_mapping_gives_the_defaults() {
    assertThat(parse("{}")).isEqualTo(ServerSettings.defaults());
    assertThat(parse("server: {}\ncassandra: {}\ntimeseries: {limits: {}}"))
        .isEqualTo(ServerSettings.defaults());
  }

  @Test
  void loads_a_file(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("varve.yaml");
    Files.writeString(file, "server:\n  port: 9090\n");

    assertThat(ServerSettings.load(file))
        .isEqualTo(ServerSettings.defaults().toBuilder().port(9090).build());
  }

  @Test
  void refuses_a_key_given_twice_naming_it(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("varve.yaml");
    Files.writeString(file, "server:\n  port: 9090\n  host: 127.0.0.1\n  port: 9091\n");

    assertThatThrownBy(() -> ServerSettings.load(file))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageStartingWith(file + ": cannot be read: Duplicate field 'port'");
  }

  @Test
  void refuses_a_missing_file_naming_it(@TempDir Path dir) {
    Path file = dir.resolve("absent.yaml");

    assertThatThrownBy(() -> ServerSettings.load(file))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageStartingWith(file + ": cannot be read");
  }

  static Stream<Arguments> overrides() {
    return Stream.of(
        Arguments.of(
            "server:\n  host: 0.0.0.0",
            (Function<ServerSettings, Object>) ServerSettings::host,
            "0.0.0.0"),
        Arguments.of(
            "server:\n  port: 0", (Function<ServerSettings, Object>) ServerSettings::port, 0),
        Arguments.of(
            "server:\n  tls:\n    certificateChain: /c.pem\n    privateKey: /k.pem",
            (Function<ServerSettings, Object>) ServerSettings::tls,
            Optional.of(new ServerSettings.Tls(Path.of("/c.pem"), Path.of("/k.pem")))),
        Arguments.of(
            "server:\n  auth:\n    bearerTokens: [a, b]",
            (Function<ServerSettings, Object>) s -> s.auth().tokens(),
            List.of(
                io.varve.server.auth.TokenGrant.fullAccess("bearerTokens[0]", "a"),
                io.varve.server.auth.TokenGrant.fullAccess("bearerTokens[1]", "b"))),
        Arguments.of(
            "cassandra:\n  contactPoints: [10.0.0.1:9043, localhost]",
            (Function<ServerSettings, Object>) s -> s.cassandra().contactPoints(),
            List.of(
                new InetSocketAddress("10.0.0.1", 9043), new InetSocketAddress("localhost", 9042))),
        Arguments.of(
            "cassandra:\n  localDatacenter: eu-west",
            (Function<ServerSettings, Object>) s -> s.cassandra().localDatacenter(),
            "eu-west"),
        Arguments.of(
            "cassandra:\n  username: u\n  password: p",
            (Function<ServerSettings, Object>)
                s -> s.cassandra().username().get() + "/" + s.cassandra().password().get(),
            "u/p"),
        Arguments.of(
            "cassandra:\n  tls:\n    truststore: /t.p12",
            (Function<ServerSettings, Object>) s -> s.cassandra().tls().get(),
            new io.varve.cassandra.session.CassandraSettings.Tls(
                Path.of("/t.p12"), "", Optional.empty(), Optional.empty(), true)),
        Arguments.of(
            "cassandra:\n  tls:\n    truststore: /t.p12\n    truststorePassword: tp\n    keystore: /k.p12\n"
                + "    keystorePassword: kp\n    hostnameValidation: false",
            (Function<ServerSettings, Object>) s -> s.cassandra().tls().get(),
            new io.varve.cassandra.session.CassandraSettings.Tls(
                Path.of("/t.p12"), "tp", Optional.of(Path.of("/k.p12")), Optional.of("kp"), false)),
        Arguments.of(
            "cassandra:\n  compression: lz4",
            (Function<ServerSettings, Object>) s -> s.cassandra().compression(),
            "lz4"),
        Arguments.of(
            "cassandra:\n  requestTimeout: 1500ms",
            (Function<ServerSettings, Object>) s -> s.cassandra().requestTimeout(),
            Duration.ofMillis(1500)),
        Arguments.of(
            "cassandra:\n  schemaTimeout: 2m",
            (Function<ServerSettings, Object>) s -> s.cassandra().schemaTimeout(),
            Duration.ofMinutes(2)),
        Arguments.of(
            "cassandra:\n  metadataKeyspace: varve_meta",
            (Function<ServerSettings, Object>) s -> s.cassandra().metadataKeyspace(),
            "varve_meta"),
        Arguments.of(
            "cassandra:\n  replication: {class: NetworkTopologyStrategy, dc1: 3, dc2: 3}",
            (Function<ServerSettings, Object>) s -> s.cassandra().replication(),
            Map.of("class", "NetworkTopologyStrategy", "dc1", "3", "dc2", "3")),
        Arguments.of(
            "cassandra:\n  maxInFlightWrites: 16",
            (Function<ServerSettings, Object>) s -> s.cassandra().maxInFlightWrites(),
            16),
        Arguments.of(
            "server:\n  admission:\n    maxWriteQueueDelay: 250ms",
            (Function<ServerSettings, Object>) s -> s.admission().maxWriteQueueDelay(),
            Duration.ofMillis(250)),
        Arguments.of(
            "server:\n  shutdown:\n    quietPeriod: 10s\n    timeout: 1m",
            (Function<ServerSettings, Object>) ServerSettings::shutdown,
            new ServerSettings.Shutdown(Duration.ofSeconds(10), Duration.ofMinutes(1))),
        Arguments.of(
            "cassandra:\n  maxInFlightWriteBytes: 1048576",
            (Function<ServerSettings, Object>) s -> s.cassandra().maxInFlightWriteBytes(),
            1048576L),
        Arguments.of(
            "opensearch:\n  queueBytes: 2097152",
            (Function<ServerSettings, Object>) s -> s.opensearch().queueBytes(),
            2097152L),
        Arguments.of(
            "opensearch:\n  bulkMaxBytes: 65536",
            (Function<ServerSettings, Object>) s -> s.opensearch().bulkMaxBytes(),
            65536L),
        Arguments.of(
            "cassandra:\n  compressionThreshold: 1",
            (Function<ServerSettings, Object>) s -> s.cassandra().compressionThreshold(),
            1),
        Arguments.of(
            "timeseries:\n  readFanout: 64",
            (Function<ServerSettings, Object>) s -> s.readFanout() + "/" + s.maxReadFanout(),
            "64/64"),
        Arguments.of(
            "timeseries:\n  readFanout: 4\n  maxReadFanout: 4",
            (Function<ServerSettings, Object>) s -> s.readFanout() + "/" + s.maxReadFanout(),
            "4/4"),
        Arguments.of(
            "timeseries:\n  sliceMaintenanceInterval: 1d",
            (Function<ServerSettings, Object>) ServerSettings::sliceMaintenanceInterval,
            Duration.ofDays(1)),
        Arguments.of(
            "timeseries:\n  limits:\n    maxPageSize: 50",
            (Function<ServerSettings, Object>)
                s -> s.limits().maxPageSize() + "/" + s.limits().defaultPageSize(),
            "50/50"),
        Arguments.of(
            "timeseries:\n  limits:\n    maxEventsPerBatch: 10\n    maxEventFilters: 0\n    futureLimit: 5m",
            (Function<ServerSettings, Object>) ServerSettings::limits,
            new Limits(
                32 * Limits.MIB,
                10,
                256,
                1024,
                2 * Limits.MIB,
                8 * Limits.MIB,
                256,
                128,
                1000,
                100,
                8 * Limits.MIB,
                0,
                Duration.ofMinutes(5))));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("overrides")
  void reads_every_key(String yaml, Function<ServerSettings, Object> read, Object expected) {
    assertThat(read.apply(parse(yaml))).isEqualTo(expected);
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        // unknown keys, named in full
        Arguments.of("servr: {}", "servr", "unknown key"),
        Arguments.of("server:\n  hots: 0.0.0.0", "server.hots", "unknown key"),
        Arguments.of(
            "server:\n  tls:\n    certificate: /c.pem", "server.tls.certificate", "unknown key"),
        Arguments.of("server:\n  auth:\n    token: [a]", "server.auth.token", "unknown key"),
        Arguments.of("cassandra:\n  contactPoint: [db1]", "cassandra.contactPoint", "unknown key"),
        Arguments.of(
            "cassandra:\n  tls:\n    trustStore: /t.p12",
            "cassandra.tls.trustStore",
            "unknown key"),
        Arguments.of("timeseries:\n  fanout: 3", "timeseries.fanout", "unknown key"),
        Arguments.of(
            "timeseries:\n  limits:\n    maxPagesize: 5",
            "timeseries.limits.maxPagesize",
            "unknown key"),
        // shapes
        Arguments.of("server: 5", "server", "(expected: a mapping)"),
        Arguments.of("server:\n  host: [a]", "server.host", "(expected: a string)"),
        Arguments.of(
            "server:\n  tls:\n    certificateChain: /c.pem", "server.tls.privateKey", "missing"),
        Arguments.of(
            "server:\n  auth:\n    bearerTokens: secret",
            "server.auth.bearerTokens",
            "a list of strings"),
        // ports and integers
        Arguments.of("server:\n  port: -1", "server.port", "(expected: 0..65535)"),
        Arguments.of("server:\n  port: 65536", "server.port", "(expected: 0..65535)"),
        Arguments.of("server:\n  port: http", "server.port", "an integer in 0..65535"),
        Arguments.of("server:\n  port: 80.5", "server.port", "an integer in 0..65535"),
        Arguments.of("server:\n  port: 99999999999", "server.port", "(expected: 0..65535)"),
        Arguments.of("server:\n  port: true", "server.port", "an integer in 0..65535"),
        Arguments.of("timeseries:\n  readFanout: 0", "timeseries.readFanout", "1..256"),
        Arguments.of(
            "timeseries:\n  readFanout: 16\n  maxReadFanout: 8",
            "timeseries.maxReadFanout",
            "16..1024"),
        Arguments.of(
            "timeseries:\n  limits:\n    maxPageSize: 50\n    defaultPageSize: 100",
            "timeseries.limits.defaultPageSize",
            "1..50"),
        Arguments.of(
            "timeseries:\n  limits:\n    maxRequestBytes: 1023",
            "timeseries.limits.maxRequestBytes",
            "1024..268435456"),
        Arguments.of(
            "timeseries:\n  limits:\n    maxEventFilters: -1",
            "timeseries.limits.maxEventFilters",
            "0..1000"),
        Arguments.of(
            "cassandra:\n  maxInFlightWrites: 0", "cassandra.maxInFlightWrites", "1..65536"),
        Arguments.of(
            "cassandra:\n  maxInFlightWriteBytes: 1000",
            "cassandra.maxInFlightWriteBytes",
            "1048576..2147483647"),
        // durations
        Arguments.of(
            "cassandra:\n  requestTimeout: 5 parsecs",
            "cassandra.requestTimeout",
            "units: ms, s, m, h, d"),
        Arguments.of(
            "cassandra:\n  requestTimeout: 5", "cassandra.requestTimeout", "a positive duration"),
        Arguments.of(
            "cassandra:\n  requestTimeout: 0s", "cassandra.requestTimeout", "a positive duration"),
        Arguments.of(
            "cassandra:\n  requestTimeout: -1s", "cassandra.requestTimeout", "a positive duration"),
        Arguments.of(
            "cassandra:\n  requestTimeout: 1.5s",
            "cassandra.requestTimeout",
            "a positive duration"),
        Arguments.of(
            "cassandra:\n  requestTimeout: 5S", "cassandra.requestTimeout", "a positive duration"),
        Arguments.of(
            "cassandra:\n  schemaTimeout: 2w", "cassandra.schemaTimeout", "a positive duration"),
        Arguments.of(
            "timeseries:\n  sliceMaintenanceInterval: 0ms",
            "timeseries.sliceMaintenanceInterval",
            "a positive duration"),
        Arguments.of(
            "timeseries:\n  limits:\n    futureLimit: forever",
            "timeseries.limits.futureLimit",
            "a positive duration"),
        // other values
        Arguments.of("cassandra:\n  compression: snappy", "cassandra.compression", "none or lz4"),
        Arguments.of(
            "cassandra:\n  metadataKeyspace: Varve",
            "cassandra.metadataKeyspace",
            "[a-z][a-z0-9_]{0,47}"),
        Arguments.of(
            "cassandra:\n  contactPoints: db1:x", "cassandra.contactPoints", "a list of strings"),
        Arguments.of(
            "cassandra:\n  contactPoints: [db1:x]", "cassandra.contactPoints", "host:port"),
        Arguments.of(
            "cassandra:\n  contactPoints: [db1:0]", "cassandra.contactPoints", "host:port"),
        Arguments.of(
            "cassandra:\n  contactPoints: [':9042']", "cassandra.contactPoints", "host:port"),
        Arguments.of(
            "cassandra:\n  replication: SimpleStrategy", "cassandra.replication", "a mapping"),
        Arguments.of(
            "cassandra:\n  tls:\n    truststore: /t.p12\n    hostnameValidation: maybe",
            "cassandra.tls.hostnameValidation",
            "true or false"),
        // index store and search limits
        Arguments.of("opensearch:\n  url: [http://a:9200]", "opensearch.url", "unknown key"),
        Arguments.of(
            "opensearch:\n  urls: [a:9200]",
            "opensearch.urls",
            "http://host:port or https://host:port"),
        Arguments.of(
            "opensearch:\n  urls: ['ftp://a:9200']", "opensearch.urls", "http://host:port"),
        Arguments.of("opensearch:\n  urls: ['http://a']", "opensearch.urls", "http://host:port"),
        Arguments.of(
            "opensearch:\n  username: varve",
            "opensearch.password",
            "username and password together"),
        Arguments.of(
            "opensearch:\n  password: secret",
            "opensearch.username",
            "username and password together"),
        Arguments.of(
            "opensearch:\n  tls:\n    hostnameValidation: false",
            "opensearch.tls.truststore",
            "missing"),
        Arguments.of("opensearch:\n  queueCapacity: 0", "opensearch.queueCapacity", "1..10000000"),
        Arguments.of(
            "opensearch:\n  queueBytes: 1000", "opensearch.queueBytes", "1048576..2147483647"),
        Arguments.of(
            "opensearch:\n  bulkMaxBytes: 1073741824",
            "opensearch.bulkMaxBytes",
            "65536..268435456"),
        Arguments.of("opensearch:\n  bulkConcurrency: 300", "opensearch.bulkConcurrency", "1..256"),
        Arguments.of(
            "opensearch:\n  requestTimeout: soon",
            "opensearch.requestTimeout",
            "a positive duration"),
        Arguments.of(
            "timeseries:\n  search:\n    maxInterval: 0s",
            "timeseries.search.maxInterval",
            "a positive duration"),
        Arguments.of(
            "timeseries:\n  search:\n    maxQueryDepth: 40",
            "timeseries.search.maxQueryDepth",
            "1..32"),
        Arguments.of(
            "timeseries:\n  search:\n    maxPageSize: 50\n    defaultPageSize: 100",
            "timeseries.search.defaultPageSize",
            "1..50"),
        Arguments.of(
            "server:\n  shutdown:\n    quietPeriod: 30s",
            "server.shutdown.timeout",
            "\"15s\" (expected: at least server.shutdown.quietPeriod (30s))"),
        Arguments.of(
            "server:\n  shutdown:\n    quietPeriod: 0s",
            "server.shutdown.quietPeriod",
            "a positive duration"));
  }

  @Test
  void the_index_store_is_off_unless_urls_are_given_and_secrets_stay_out_of_the_log() {
    assertThat(ServerSettings.defaults().opensearch().enabled()).isFalse();
    ServerSettings s =
        parse(
            "opensearch:\n  urls: ['https://search-1:9200', 'http://127.0.0.1:9200']\n"
                + "  username: varve\n  password: hunter2\n  bulkMaxEvents: 500");
    assertThat(s.opensearch().enabled()).isTrue();
    assertThat(s.opensearch().urls())
        .extracting(java.net.URI::toString)
        .containsExactly("https://search-1:9200", "http://127.0.0.1:9200");
    assertThat(s.opensearch().bulkMaxEvents()).isEqualTo(500);
    assertThat(s.describe()).contains("opensearch.password=(redacted)").doesNotContain("hunter2");
    assertThat(
            ServerSettings.defaults().toBuilder()
                .openSearchUrls(List.of(java.net.URI.create("http://h:1")))
                .build()
                .opensearch()
                .urls())
        .extracting(java.net.URI::toString)
        .containsExactly("http://h:1");
  }

  @ParameterizedTest(name = "[{index}] {1}: {0}")
  @MethodSource("refused")
  void refuses_bad_values_naming_the_full_key(String yaml, String field, String expected) {
    assertThatThrownBy(() -> parse(yaml))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ").contains(expected);
            });
  }

  @Test
  void unknown_key_error_lists_the_keys_of_its_section_in_declaration_order() {
    assertThatThrownBy(() -> parse("server:\n  hots: x"))
        .hasMessage(
            "server.hots: unknown key (expected one of: host, port, tls, auth, admission, shutdown)");
  }

  @Test
  void the_log_line_shows_every_option_with_its_effective_value_and_no_secret() {
    ServerSettings s =
        parse(
            "server:\n  port: 0\n  auth:\n    bearerTokens: [root-secret]\n"
                + "cassandra:\n  username: u\n  password: p-secret\n  tls:\n    truststore: /t.p12\n"
                + "    truststorePassword: t-secret\ntimeseries:\n  limits:\n    futureLimit: 90m");

    String line = s.toBuilder().port(8443).build().describe();

    assertThat(line)
        .startsWith(
            "server.host=127.0.0.1 server.port=8443 server.tls.certificateChain=(none)"
                + " server.tls.privateKey=(none) server.auth.bearerTokens=(redacted) server.auth.tokens=[bearerTokens[0]")
        .contains(
            " cassandra.contactPoints=[\"127.0.0.1:9042\"] ",
            " cassandra.username=u ",
            " cassandra.password=(redacted) ",
            " cassandra.tls.truststore=/t.p12 ",
            " cassandra.tls.truststorePassword=(redacted) ",
            " cassandra.tls.keystore=(none) ",
            " cassandra.replication={class: SimpleStrategy, replication_factor: 1} ",
            " timeseries.limits.futureLimit=90m ",
            " server.admission.writeBytes=" + s.admission().writeBytes())
        .doesNotContain("root-secret", "p-secret", "t-secret");
    for (var option : ConfigFile.OPTIONS.options()) {
      assertThat(line).contains(option.key() + "=");
    }
  }

  @Test
  void a_builder_from_settings_changes_only_what_is_set() {
    ServerSettings d = ServerSettings.defaults();
    var other = d.cassandra().withMetadataKeyspace("other");

    assertThat(d.toBuilder().port(1234).build()).isEqualTo(parse("server: {port: 1234}"));
    assertThat(d.toBuilder().cassandra(other).build().cassandra()).isEqualTo(other);
    assertThat(d.toBuilder().cassandra(other).build().limits()).isEqualTo(d.limits());
  }
}
