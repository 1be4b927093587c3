package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.namespace.Consistency;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.namespace.Retention;
import io.varve.core.partitioning.CompactionPolicy;
import io.varve.core.partitioning.TimePartition;
import io.varve.server.json.ProtoJson;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class NamespaceConfigMapperTest {

  private static final NamespaceConfigMapper MAPPER = new NamespaceConfigMapper("varve");

  /**
   * The namespace configuration of the reference article, comments included, as a CreateNamespace
   * body.
   */
  private static final String REFERENCE =
      """
      {
        "namespace": "tracing",
        "persistence_configuration": [
          {
            "id": "PRIMARY_STORAGE",
            "physical_storage": {
              "type": "CASSANDRA", // type of primary storage
              "cluster": "cass_dgw_ts_tracing", // physical cluster name
              "dataset": "tracing_default" // maps to the keyspace
            },
            "config": {
              "timePartition": {
                "secondsPerTimeSlice": "129600", // width of a time slice
                "secondPerTimeBucket": "3600", // width of a time bucket
                "eventBuckets": 4 // how many event buckets within
              },
              "queueBuffering": {
                "coalesce": "1s", // how long to coalesce writes
                "bufferCapacity": 4194304 // queue capacity in bytes
              },
              "consistencyScope": "LOCAL", // single-region/multi-region
              "consistencyTarget": "EVENTUAL", // read/write consistency
              "acceptLimit": "129600s" // how far back writes are allowed
            },
            "lifecycleConfigs": {
              "lifecycleConfig": [ // Primary store data retention
                {
                  "type": "retention",
                  "config": {
                    "close_after": "1296000s", // close for reads/writes
                    "delete_after": "1382400s" // drop time slice
                  }
                }
              ]
            }
          },
          {
            "id": "INDEX_STORAGE",
            "physicalStorage": {
              "type": "ELASTICSEARCH", // type of index storage
              "cluster": "es_dgw_ts_tracing", // ES cluster name
              "dataset": "tracing_default_useast1" // base index name
            },
            "config": {
              "timePartition": {
                "secondsPerSlice": "129600" // width of the index slice
              },
              "consistencyScope": "LOCAL",
              "consistencyTarget": "EVENTUAL", // how should we read/write data
              "acceptLimit": "129600s", // how far back writes are allowed
              "indexConfig": {
                "fieldMapping": { // fields to extract to index
                  "tags.nf.app": "KEYWORD",
                  "tags.duration": "INTEGER",
                  "tags.enabled": "BOOLEAN"
                },
                "refreshInterval": "60s" // Index related settings
              }
            },
            "lifecycleConfigs": {
              "lifecycleConfig": [
                {
                  "type": "retention", // Index retention settings
                  "config": {
                    "close_after": "1296000s",
                    "delete_after": "1382400s"
                  }
                }
              ]
            }
          }
        ]
      }
      """;

  private static NamespaceConfigMapper.Mapped map(String body) {
    CreateNamespaceRequest request =
        ProtoJson.parse(body, CreateNamespaceRequest.getDefaultInstance());
    return MAPPER.map(request.getNamespace(), request.getPersistenceConfigurationList());
  }

  /** A CreateNamespace body for namespace {@code orders} with the given entries. */
  private static String create(String... entries) {
    return "{\"namespace\": \"orders\", \"persistence_configuration\": ["
        + String.join(",", entries)
        + "]}";
  }

  /** A PRIMARY_STORAGE entry with the given {@code config} object. */
  private static String primary(String config) {
    return "{\"id\": \"PRIMARY_STORAGE\", \"config\": " + config + "}";
  }

  private static String retention(String closeAndDelete) {
    return "{\"id\": \"PRIMARY_STORAGE\", \"lifecycleConfigs\": {\"lifecycleConfig\": [{\"type\": \"retention\", "
        + "\"config\": {"
        + closeAndDelete
        + "}}]}}";
  }

  private static final String INDEX =
      "{\"id\": \"INDEX_STORAGE\", \"physicalStorage\": {\"type\": \"OPENSEARCH\", "
          + "\"dataset\": \"orders_idx\"}}";

  @Test
  void with_clusters_configured_a_namespace_names_one_of_them_or_none_of_either_service() {
    NamespaceConfigMapper fleet =
        new NamespaceConfigMapper(
            "varve", Duration.ofHours(1), java.util.Set.of("analytics", "cold"));
    for (String service : List.of("TIME_SERIES", "KEY_VALUE")) {
      for (String cluster : List.of("", "analytics")) {
        fleet.map("ns", service, List.of(onCluster(cluster)));
      }
      assertThatThrownBy(
              () -> fleet.map("ns", service, List.of(onCluster("cassandra_kv_ngsegment"))))
          .as(service)
          .isInstanceOf(InvalidFieldException.class)
          .hasMessageContaining("persistence_configuration[0].physicalStorage.cluster")
          .hasMessageContaining("cassandra_kv_ngsegment")
          .hasMessageContaining("analytics, cold");
    }
  }

  @Test
  void without_clusters_configured_the_cluster_name_is_informational() {
    for (String service : List.of("TIME_SERIES", "KEY_VALUE")) {
      MAPPER.map("ns", service, List.of(onCluster("cassandra_kv_ngsegment")));
    }
  }

  private static PersistenceConfiguration onCluster(String cluster) {
    return PersistenceConfiguration.newBuilder()
        .setId("PRIMARY_STORAGE")
        .setPhysicalStorage(
            io.varve.api.timeseries.v1.PhysicalStorage.newBuilder().setCluster(cluster))
        .build();
  }

  @Test
  void accepts_the_reference_configuration_with_its_comments() {
    NamespaceSettings s = map(REFERENCE).settings();

    assertThat(s.namespace()).isEqualTo("tracing");
    assertThat(s.keyspace()).isEqualTo("tracing_default");
    assertThat(s.partition()).isEqualTo(new TimePartition(129_600, 3_600, 4));
    assertThat(s.consistency())
        .isEqualTo(new Consistency(Consistency.Scope.LOCAL, Consistency.Target.EVENTUAL));
    assertThat(s.acceptLimit()).isEqualTo(Duration.ofSeconds(129_600));
    assertThat(s.retention())
        .isEqualTo(
            new Retention(
                Optional.of(Duration.ofSeconds(1_296_000)),
                Optional.of(Duration.ofSeconds(1_382_400))));
    assertThat(s.coalesce()).isEqualTo(Duration.ofSeconds(1));
    assertThat(s.bufferCapacityBytes()).isEqualTo(4_194_304);
  }

  @Test
  void normalizes_the_reference_configuration_and_keeps_the_index_entry() {
    List<PersistenceConfiguration> normalized = map(REFERENCE).normalized();

    assertThat(normalized)
        .extracting(PersistenceConfiguration::getId)
        .containsExactly("PRIMARY_STORAGE", "INDEX_STORAGE");
    PersistenceConfiguration primary = normalized.get(0);
    assertThat(primary.getPhysicalStorage().getType()).isEqualTo("CASSANDRA");
    assertThat(primary.getPhysicalStorage().getCluster()).isEqualTo("cass_dgw_ts_tracing");
    assertThat(primary.getConfig().getTimePartition().getSecondsPerTimeBucket()).isEqualTo(3_600);
    assertThat(primary.getConfig().getTimePartition().hasSecondPerTimeBucket()).isFalse();
    assertThat(primary.getConfig().getAcceptLimit().getSeconds()).isEqualTo(129_600);
    PersistenceConfiguration index = normalized.get(1);
    assertThat(index.getPhysicalStorage().getDataset()).isEqualTo("tracing_default_useast1");
    assertThat(index.getConfig().getTimePartition().getSecondsPerSlice()).isEqualTo(129_600);
    assertThat(index.getConfig().getIndexConfig().getFieldMappingMap())
        .containsEntry("tags.nf.app", "KEYWORD")
        .containsEntry("tags.duration", "INTEGER")
        .containsEntry("tags.enabled", "BOOLEAN");
    assertThat(index.getConfig().getIndexConfig().getRefreshInterval().getSeconds()).isEqualTo(60);
  }

  @Test
  void fills_in_defaults_when_keys_are_absent() {
    NamespaceConfigMapper.Mapped mapped = map(create("{\"id\": \"PRIMARY_STORAGE\"}"));
    NamespaceSettings s = mapped.settings();

    assertThat(s.keyspace()).isEqualTo("orders");
    assertThat(s.partition()).isEqualTo(new TimePartition(86_400, 3_600, 4));
    assertThat(s.consistency())
        .isEqualTo(new Consistency(Consistency.Scope.LOCAL, Consistency.Target.STRONG));
    assertThat(s.acceptLimit()).isEqualTo(Duration.ofHours(36));
    assertThat(s.retention()).isEqualTo(Retention.FOREVER);
    assertThat(s.coalesce()).isEqualTo(Duration.ofSeconds(1));
    assertThat(s.bufferCapacityBytes()).isEqualTo(4L * 1024 * 1024);

    PersistenceConfiguration normalized = mapped.normalized().get(0);
    assertThat(normalized.getPhysicalStorage().getType()).isEqualTo("CASSANDRA");
    assertThat(normalized.getPhysicalStorage().getDataset()).isEqualTo("orders");
    assertThat(normalized.getConfig().getTimePartition().getSecondsPerTimeSlice())
        .isEqualTo(86_400);
    assertThat(normalized.getConfig().getTimePartition().getEventBuckets()).isEqualTo(4);
    assertThat(normalized.getConfig().getConsistencyScope()).isEqualTo("LOCAL");
    assertThat(normalized.getConfig().getConsistencyTarget()).isEqualTo("STRONG");
    assertThat(normalized.getConfig().getQueueBuffering().getBufferCapacity())
        .isEqualTo(4L * 1024 * 1024);
  }

  static Stream<Arguments> accepted() {
    return Stream.of(
        Arguments.of(
            "compaction defaults to time windows, then the backend's read-optimised strategy",
            primary("{}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::compaction,
            CompactionPolicy.DEFAULT),
        Arguments.of(
            "compaction strategies in any case",
            primary("{\"compaction\": {\"open\": \"cluster_default\", \"closed\": \"Leveled\"}}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::compaction,
            new CompactionPolicy(
                CompactionPolicy.Open.CLUSTER_DEFAULT, CompactionPolicy.Closed.LEVELED)),
        Arguments.of(
            "partitioning is the operator's unless timePartition.auto",
            primary("{}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::autoPartition,
            false),
        Arguments.of(
            "timePartition.auto opts in to the histograms' recommendations",
            primary("{\"timePartition\": {\"auto\": true}}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::autoPartition,
            true),
        Arguments.of(
            "the narrowest slice takes a bucket of the slice's width",
            primary("{\"timePartition\": {\"secondsPerTimeSlice\": 3600}}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::partition,
            new TimePartition(3_600, 3_600, 4)),
        Arguments.of(
            "bucket alone keeps the default slice",
            primary("{\"timePartition\": {\"secondsPerTimeBucket\": 7200}}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::partition,
            new TimePartition(86_400, 7_200, 4)),
        Arguments.of(
            "the reference spelling secondPerTimeBucket",
            primary("{\"timePartition\": {\"secondPerTimeBucket\": \"600\"}}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::partition,
            new TimePartition(86_400, 600, 4)),
        Arguments.of(
            "both spellings when equal",
            primary(
                "{\"time_partition\": {\"second_per_time_bucket\": 900, \"seconds_per_time_bucket\": 900}}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::partition,
            new TimePartition(86_400, 900, 4)),
        Arguments.of(
            "event buckets at their bounds",
            primary("{\"timePartition\": {\"eventBuckets\": 64}}"),
            (Function<NamespaceSettings, Object>) s -> s.partition().eventBuckets(),
            64),
        Arguments.of(
            "one event bucket",
            primary("{\"timePartition\": {\"eventBuckets\": 1}}"),
            (Function<NamespaceSettings, Object>) s -> s.partition().eventBuckets(),
            1),
        Arguments.of(
            "consistency in lower case",
            primary("{\"consistencyScope\": \"global\", " + "\"consistencyTarget\": \"eventual\"}"),
            (Function<NamespaceSettings, Object>) NamespaceSettings::consistency,
            new Consistency(Consistency.Scope.GLOBAL, Consistency.Target.EVENTUAL)),
        Arguments.of(
            "acceptLimit equal to close_after",
            "{\"id\": \"PRIMARY_STORAGE\", \"config\": {\"acceptLimit\": \"2d\"}, \"lifecycleConfigs\": "
                + "{\"lifecycleConfig\": [{\"type\": \"RETENTION\", \"config\": {\"close_after\": \"48h\"}}]}}",
            (Function<NamespaceSettings, Object>) NamespaceSettings::acceptLimit,
            Duration.ofDays(2)),
        Arguments.of(
            "delete_after alone",
            retention("\"delete_after\": \"30d\""),
            (Function<NamespaceSettings, Object>) NamespaceSettings::retention,
            new Retention(Optional.empty(), Optional.of(Duration.ofDays(30)))),
        Arguments.of(
            "delete_after equal to close_after",
            retention("\"close_after\": \"7d\", \"delete_after\": \"168h\""),
            (Function<NamespaceSettings, Object>) NamespaceSettings::retention,
            new Retention(Optional.of(Duration.ofDays(7)), Optional.of(Duration.ofDays(7)))),
        Arguments.of(
            "coalesce of a minute and a large buffer",
            primary(
                "{\"queueBuffering\": {\"coalesce\": \"1m\", \"bufferCapacity\": \"1073741824\"}}"),
            (Function<NamespaceSettings, Object>) s -> s.coalesce() + " " + s.bufferCapacityBytes(),
            "PT1M 1073741824"),
        Arguments.of(
            "ScyllaDB in lower case",
            "{\"id\": \"PRIMARY_STORAGE\", \"physicalStorage\": {\"type\": \"scylladb\", \"dataset\": \"orders_ks\"}}",
            (Function<NamespaceSettings, Object>) NamespaceSettings::keyspace,
            "orders_ks"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("accepted")
  void accepts_valid_settings(
      String name, String entry, Function<NamespaceSettings, Object> read, Object expected) {
    assertThat(read.apply(map(create(entry)).settings())).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0} {1} -> {2}")
  @CsvSource({
    "LOCAL,  EVENTUAL, LOCAL_ONE",
    "LOCAL,  STRONG,   LOCAL_QUORUM",
    "GLOBAL, EVENTUAL, ONE",
    "GLOBAL, STRONG,   QUORUM"
  })
  void maps_consistency_to_the_documented_cql_level(
      String scope, String target, DefaultConsistencyLevel level) {
    Consistency consistency =
        map(create(
                primary(
                    "{\"consistencyScope\": \""
                        + scope
                        + "\", \"consistencyTarget\": \""
                        + target
                        + "\"}")))
            .settings()
            .consistency();

    assertThat(ConsistencyLevels.of(consistency)).isEqualTo(level);
  }

  private static final String P = "persistence_configuration[0]";
  private static final String TP = P + ".config.timePartition.";

  static Stream<Arguments> refused() {
    String cfg = P + ".config.";
    String lc = P + ".lifecycleConfigs.lifecycleConfig[0]";
    String ix = "persistence_configuration[1]";
    return Stream.of(
        // compaction
        Arguments.of(
            "refuses_an_unknown_open_strategy",
            create(primary("{\"compaction\": {\"open\": \"DATE_TIERED\"}}")),
            cfg + "compaction.open",
            "\"DATE_TIERED\" (expected: TIME_WINDOW or CLUSTER_DEFAULT)"),
        Arguments.of(
            "refuses_an_unknown_closed_strategy",
            create(primary("{\"compaction\": {\"closed\": \"fastest\"}}")),
            cfg + "compaction.closed",
            "\"fastest\" (expected: AUTO, UNIFIED, LEVELED, INCREMENTAL, SIZE_TIERED or UNCHANGED)"),
        Arguments.of(
            "refuses_compaction_in_the_index_entry",
            create(primary("{}"), index("{\"compaction\": {\"closed\": \"LEVELED\"}}")),
            ix + ".config.compaction",
            "not allowed in INDEX_STORAGE"),
        Arguments.of(
            "refuses_time_partition_auto_in_the_index_entry",
            create(primary("{}"), index("{\"timePartition\": {\"auto\": true}}")),
            ix + ".config.timePartition.auto",
            "not allowed in INDEX_STORAGE"),
        // time partition
        Arguments.of(
            "refuses_event_buckets_out_of_range",
            create(primary("{\"timePartition\": {\"eventBuckets\": 0}}")),
            TP + "eventBuckets",
            "0 (expected: 1..64)"),
        Arguments.of(
            "refuses_event_buckets_out_of_range",
            create(primary("{\"timePartition\": {\"eventBuckets\": 65}}")),
            TP + "eventBuckets",
            "65 (expected: 1..64)"),
        Arguments.of(
            "refuses_an_empty_slice",
            create(primary("{\"timePartition\": {\"secondsPerTimeSlice\": 0}}")),
            TP + "secondsPerTimeSlice",
            "(expected: 3600..316224000 seconds)"),
        Arguments.of(
            "refuses_a_slice_over_ten_years",
            create(primary("{\"timePartition\": {\"secondsPerTimeSlice\": 316224001}}")),
            TP + "secondsPerTimeSlice",
            "(expected: 3600..316224000 seconds)"),
        Arguments.of(
            "refuses_a_bucket_wider_than_the_slice",
            create(
                primary(
                    "{\"timePartition\": {\"secondsPerTimeSlice\": 3600, \"secondsPerTimeBucket\": 7200}}")),
            TP + "secondsPerTimeBucket",
            "at most the slice width"),
        Arguments.of(
            "refuses_a_negative_bucket",
            create(primary("{\"timePartition\": {\"secondsPerTimeBucket\": -5}}")),
            TP + "secondsPerTimeBucket",
            "-5"),
        Arguments.of(
            "refuses_a_slice_not_a_multiple_of_the_bucket",
            create(
                primary(
                    "{\"timePartition\": {\"secondsPerTimeSlice\": 5000, \"secondsPerTimeBucket\": 3000}}")),
            TP + "secondsPerTimeSlice",
            "a multiple of secondsPerTimeBucket (3000)"),
        Arguments.of(
            "refuses_a_default_bucket_not_dividing_the_slice",
            create(primary("{\"timePartition\": {\"secondsPerTimeSlice\": 5000}}")),
            TP + "secondsPerTimeSlice",
            "a multiple of secondsPerTimeBucket (3600)"),
        Arguments.of(
            "refuses_two_different_bucket_widths",
            create(
                primary(
                    "{\"timePartition\": {\"secondPerTimeBucket\": 3600, \"secondsPerTimeBucket\": 1800}}")),
            TP + "secondsPerTimeBucket",
            "differs from secondPerTimeBucket 3600"),
        Arguments.of(
            "refuses_the_index_slice_key_in_primary_storage",
            create(primary("{\"timePartition\": {\"secondsPerSlice\": 3600}}")),
            TP + "secondsPerSlice",
            "not allowed in PRIMARY_STORAGE"),
        // consistency, accept limit, buffering
        Arguments.of(
            "refuses_an_unknown_scope",
            create(primary("{\"consistencyScope\": \"REGIONAL\"}")),
            cfg + "consistencyScope",
            "(expected: LOCAL or GLOBAL)"),
        Arguments.of(
            "refuses_an_unknown_target",
            create(primary("{\"consistencyTarget\": \"QUORUM\"}")),
            cfg + "consistencyTarget",
            "(expected: EVENTUAL or STRONG or READ_YOUR_WRITES)"),
        Arguments.of(
            "refuses_a_zero_accept_limit",
            create(primary("{\"acceptLimit\": \"0s\"}")),
            cfg + "acceptLimit",
            "a positive duration"),
        Arguments.of(
            "refuses_an_accept_limit_beyond_close_after",
            create(
                "{\"id\": \"PRIMARY_STORAGE\", \"config\": {\"acceptLimit\": \"49h\"}, \"lifecycleConfigs\": "
                    + "{\"lifecycleConfig\": [{\"type\": \"retention\", \"config\": {\"close_after\": \"2d\"}}]}}"),
            cfg + "acceptLimit",
            "at most the retention's close_after (172800s)"),
        Arguments.of(
            "refuses_a_zero_coalesce",
            create(primary("{\"queueBuffering\": {\"coalesce\": \"0ms\"}}")),
            cfg + "queueBuffering.coalesce",
            "a positive duration"),
        Arguments.of(
            "refuses_a_coalesce_over_a_minute",
            create(primary("{\"queueBuffering\": {\"coalesce\": \"61s\"}}")),
            cfg + "queueBuffering.coalesce",
            "at most 60s"),
        Arguments.of(
            "refuses_a_negative_buffer",
            create(primary("{\"queueBuffering\": {\"bufferCapacity\": -1}}")),
            cfg + "queueBuffering.bufferCapacity",
            "0 (durable writes only) or 1..1073741824 bytes"),
        Arguments.of(
            "refuses_a_buffer_over_a_gibibyte",
            create(primary("{\"queueBuffering\": {\"bufferCapacity\": 1073741825}}")),
            cfg + "queueBuffering.bufferCapacity",
            "0 (durable writes only) or 1..1073741824 bytes"),
        Arguments.of(
            "refuses_index_config_in_primary_storage",
            create(primary("{\"indexConfig\": {\"refreshInterval\": \"60s\"}}")),
            cfg + "indexConfig",
            "expected: in the INDEX_STORAGE entry"),
        // physical storage
        Arguments.of(
            "refuses_a_primary_store_other_than_cassandra",
            create("{\"id\": \"PRIMARY_STORAGE\", \"physicalStorage\": {\"type\": \"MYSQL\"}}"),
            P + ".physicalStorage.type",
            "(expected: CASSANDRA or SCYLLADB)"),
        Arguments.of(
            "refuses_a_long_cluster_name",
            create(
                "{\"id\": \"PRIMARY_STORAGE\", \"physicalStorage\": {\"cluster\": \""
                    + "c".repeat(129)
                    + "\"}}"),
            P + ".physicalStorage.cluster",
            "at most 128 characters"),
        Arguments.of(
            "refuses_a_dataset_that_is_no_keyspace_name",
            create(
                "{\"id\": \"PRIMARY_STORAGE\", \"physical_storage\": {\"dataset\": \"Orders-Prod\"}}"),
            P + ".physicalStorage.dataset",
            "[a-z][a-z0-9_]{0,47}"),
        Arguments.of(
            "refuses_a_system_keyspace",
            create(
                "{\"id\": \"PRIMARY_STORAGE\", \"physical_storage\": {\"dataset\": \"system_auth\"}}"),
            P + ".physicalStorage.dataset",
            "not starting with 'system'"),
        Arguments.of(
            "refuses_the_metadata_keyspace",
            create("{\"id\": \"PRIMARY_STORAGE\", \"physical_storage\": {\"dataset\": \"varve\"}}"),
            P + ".physicalStorage.dataset",
            "other than 'varve'"),
        // retention
        Arguments.of(
            "refuses_a_lifecycle_other_than_retention",
            create(
                "{\"id\": \"PRIMARY_STORAGE\", \"lifecycleConfigs\": {\"lifecycleConfig\": [{\"type\": \"ttl\"}]}}"),
            lc + ".type",
            "(expected: retention)"),
        Arguments.of(
            "refuses_a_second_retention",
            create(
                "{\"id\": \"PRIMARY_STORAGE\", \"lifecycleConfigs\": {\"lifecycleConfig\": [{\"type\": \"retention\"},"
                    + " {\"type\": \"retention\"}]}}"),
            P + ".lifecycleConfigs.lifecycleConfig[1]",
            "a second retention entry"),
        Arguments.of(
            "refuses_delete_before_close",
            create(retention("\"close_after\": \"100h\", \"delete_after\": \"50h\"")),
            lc + ".config.delete_after",
            "at least close_after (360000s)"),
        Arguments.of(
            "refuses_a_zero_close_after",
            create(retention("\"close_after\": \"0s\"")),
            lc + ".config.close_after",
            "a positive duration"),
        Arguments.of(
            "refuses_a_zero_delete_after",
            create(retention("\"delete_after\": \"0d\"")),
            lc + ".config.delete_after",
            "a positive duration"),
        // entries
        Arguments.of(
            "refuses_an_empty_configuration", create(), "persistence_configuration", "missing"),
        Arguments.of(
            "refuses_an_unknown_entry",
            create("{\"id\": \"SECONDARY_STORAGE\"}"),
            P + ".id",
            "(expected: PRIMARY_STORAGE or INDEX_STORAGE)"),
        Arguments.of(
            "refuses_a_missing_id",
            create("{}"),
            P + ".id",
            "(expected: PRIMARY_STORAGE or INDEX_STORAGE)"),
        Arguments.of(
            "refuses_two_primary_entries",
            create("{\"id\": \"PRIMARY_STORAGE\"}", "{\"id\": \"PRIMARY_STORAGE\"}"),
            "persistence_configuration[1].id",
            "a second PRIMARY_STORAGE entry"),
        Arguments.of(
            "refuses_an_index_without_primary",
            create(INDEX),
            "persistence_configuration",
            "no PRIMARY_STORAGE entry"),
        Arguments.of(
            "refuses_two_index_entries",
            create("{\"id\": \"PRIMARY_STORAGE\"}", INDEX, INDEX),
            "persistence_configuration[2].id",
            "a second INDEX_STORAGE entry"),
        Arguments.of(
            "refuses_a_bad_namespace_name",
            "{\"namespace\": \"1orders\", \"persistence_configuration\": "
                + "[{\"id\": \"PRIMARY_STORAGE\"}]}",
            "namespace",
            "[a-z][a-z0-9_]{0,47}"),
        // index storage
        Arguments.of(
            "refuses_an_index_store_other_than_opensearch",
            create(
                "{\"id\": \"PRIMARY_STORAGE\"}",
                "{\"id\": \"INDEX_STORAGE\", \"physicalStorage\": "
                    + "{\"type\": \"CASSANDRA\", \"dataset\": \"idx\"}}"),
            ix + ".physicalStorage.type",
            "(expected: OPENSEARCH or ELASTICSEARCH)"),
        Arguments.of(
            "refuses_an_index_without_type",
            create(
                "{\"id\": \"PRIMARY_STORAGE\"}",
                "{\"id\": \"INDEX_STORAGE\", \"physicalStorage\": " + "{\"dataset\": \"idx\"}}"),
            ix + ".physicalStorage.type",
            "(expected: OPENSEARCH or ELASTICSEARCH)"),
        Arguments.of(
            "refuses_a_bad_base_index_name",
            create(
                "{\"id\": \"PRIMARY_STORAGE\"}",
                "{\"id\": \"INDEX_STORAGE\", \"physicalStorage\": "
                    + "{\"type\": \"opensearch\", \"dataset\": \"Idx Name\"}}"),
            ix + ".physicalStorage.dataset",
            "a base index name"),
        Arguments.of(
            "refuses_an_empty_index_slice",
            create(
                "{\"id\": \"PRIMARY_STORAGE\"}",
                index("{\"timePartition\": {\"secondsPerSlice\": 0}}")),
            ix + ".config.timePartition.secondsPerSlice",
            "0 (expected: 3600..316224000 seconds)"),
        Arguments.of(
            "refuses_an_unknown_index_field_type",
            create(
                "{\"id\": \"PRIMARY_STORAGE\"}",
                index("{\"indexConfig\": {\"fieldMapping\": {\"tags.app\": \"GEO\"}}}")),
            ix + ".config.indexConfig.fieldMapping.tags.app",
            "one of"),
        Arguments.of(
            "refuses_a_zero_refresh_interval",
            create(
                "{\"id\": \"PRIMARY_STORAGE\"}",
                index("{\"indexConfig\": {\"refreshInterval\": \"0s\"}}")),
            ix + ".config.indexConfig.refreshInterval",
            "a positive duration"),
        Arguments.of(
            "refuses_an_unknown_index_target",
            create(
                "{\"id\": \"PRIMARY_STORAGE\"}", index("{\"consistencyTarget\": \"SOMETIMES\"}")),
            ix + ".config.consistencyTarget",
            "(expected: EVENTUAL or STRONG or READ_YOUR_WRITES)"),
        Arguments.of(
            "refuses_a_zero_index_accept_limit",
            create("{\"id\": \"PRIMARY_STORAGE\"}", index("{\"acceptLimit\": \"0s\"}")),
            ix + ".config.acceptLimit",
            "a positive duration"));
  }

  private static String index(String config) {
    return "{\"id\": \"INDEX_STORAGE\", \"physicalStorage\": {\"type\": \"OPENSEARCH\", \"dataset\": \"idx\"}, "
        + "\"config\": "
        + config
        + "}";
  }

  @ParameterizedTest(name = "[{index}] {0} ({2})")
  @MethodSource("refused")
  void refuses_invalid_settings_naming_the_full_path(
      String name, String body, String field, String expected) {
    assertThatThrownBy(() -> map(body))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ").contains(expected);
            });
  }

  @Test
  void a_key_value_namespace_refuses_compaction_which_is_for_slice_tables() {
    CreateNamespaceRequest request =
        ProtoJson.parse(
            create(
                "{\"id\": \"PRIMARY_STORAGE\", \"physical_storage\": {\"table\": \"items\","
                    + " \"config\": {\"compaction\": {\"closed\": \"LEVELED\"}}}}"),
            CreateNamespaceRequest.getDefaultInstance());

    assertThatThrownBy(
            () ->
                MAPPER.map(
                    request.getNamespace(), "KEY_VALUE", request.getPersistenceConfigurationList()))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo("persistence_configuration[0].config.compaction");
              assertThat(e.getMessage()).contains("KEY_VALUE");
            });
  }

  @Test
  void refuses_event_buckets_out_of_range_with_the_documented_message() {
    assertThatThrownBy(() -> map(create(primary("{\"timePartition\": {\"eventBuckets\": 0}}"))))
        .hasMessage(
            "persistence_configuration[0].config.timePartition.eventBuckets: 0 (expected: 1..64)");
  }

  // Bounds of the values that multiply work: each accepted at its limit and refused one past it.
  // With the default futureLimit of 3600 s and hourly slices, the write window of acceptLimit A
  // takes
  // ceil((A + 3600 + 3600) / 3600) + 1 slices, and a delete_after D keeps ceil((D + 3600 + 7200) /
  // 3600) + 1.

  private static final String HOURLY = "\"timePartition\": {\"secondsPerTimeSlice\": 3600}";

  private static String hourlyIndex(String config) {
    return index(
        "{\"timePartition\": {\"secondsPerSlice\": 3600}"
            + (config.isEmpty() ? "" : ", " + config)
            + "}");
  }

  private static String hourlyIndexRetention(String deleteAfter) {
    return "{\"id\": \"INDEX_STORAGE\", \"physicalStorage\": {\"type\": \"OPENSEARCH\", \"dataset\": \"idx\"}, "
        + "\"config\": {\"timePartition\": {\"secondsPerSlice\": 3600}}, \"lifecycleConfigs\": {\"lifecycleConfig\": "
        + "[{\"type\": \"retention\", \"config\": {\"delete_after\": \""
        + deleteAfter
        + "\"}}]}}";
  }

  private static String hourlyRetention(String deleteAfter) {
    return "{\"id\": \"PRIMARY_STORAGE\", \"config\": {"
        + HOURLY
        + "}, \"lifecycleConfigs\": {\"lifecycleConfig\": "
        + "[{\"type\": \"retention\", \"config\": {\"delete_after\": \""
        + deleteAfter
        + "\"}}]}}";
  }

  static Stream<Arguments> bounds() {
    String cfg = P + ".config.";
    String ix = "persistence_configuration[1].config.";
    String p0 = "{\"id\": \"PRIMARY_STORAGE\"}";
    return Stream.of(
        Arguments.of(
            "slice width",
            create(primary("{\"timePartition\": {\"secondsPerTimeSlice\": 3600}}")),
            create(
                primary(
                    "{\"timePartition\": {\"secondsPerTimeSlice\": 3599, \"secondsPerTimeBucket\": 3599}}")),
            TP + "secondsPerTimeSlice",
            "3599 (expected: 3600..316224000 seconds)"),
        Arguments.of(
            "bucket width",
            create(
                primary(
                    "{\"timePartition\": {\"secondsPerTimeSlice\": 3600, \"secondsPerTimeBucket\": 60}}")),
            create(
                primary(
                    "{\"timePartition\": {\"secondsPerTimeSlice\": 3600, \"secondsPerTimeBucket\": 59}}")),
            TP + "secondsPerTimeBucket",
            "59 (expected: 60..3600 seconds"),
        Arguments.of(
            "buckets per slice",
            create(
                primary(
                    "{\"timePartition\": {\"secondsPerTimeSlice\": 600000, \"secondsPerTimeBucket\": 60}}")),
            create(
                primary(
                    "{\"timePartition\": {\"secondsPerTimeSlice\": 600060, \"secondsPerTimeBucket\": 60}}")),
            TP + "secondsPerTimeBucket",
            "10001 time buckets, at most 10000"),
        Arguments.of(
            "slices of the write window",
            create(primary("{" + HOURLY + ", \"acceptLimit\": \"3589200s\"}")),
            create(primary("{" + HOURLY + ", \"acceptLimit\": \"3589201s\"}")),
            cfg + "acceptLimit",
            "3589201s (expected: at most 1000 time slices across the write window; acceptLimit +"
                + " the server's futureLimit (3600s) + one slice of 3600s needs 1001"),
        Arguments.of(
            "slices held until delete_after",
            create(hourlyRetention("35985600s")),
            create(hourlyRetention("35985601s")),
            P + ".lifecycleConfigs.lifecycleConfig[0].config.delete_after",
            "35985601s (expected: at most 10000 time slices held until delete_after; slices of 3600s need 10001"),
        Arguments.of(
            "duration of a key",
            create(retention("\"close_after\": \"36525d\"")),
            create(retention("\"close_after\": \"36526d\"")),
            P + ".lifecycleConfigs.lifecycleConfig[0].config.close_after",
            "3155846400s (expected: a positive duration of at most 36525d)"),
        Arguments.of(
            "duration of the accept limit",
            create(
                primary(
                    "{\"acceptLimit\": \"36525d\", "
                        + "\"timePartition\": {\"secondsPerTimeSlice\": 31622400}}")),
            create(
                primary(
                    "{\"acceptLimit\": \"36526d\", \"timePartition\": {\"secondsPerTimeSlice\": 31622400}}")),
            cfg + "acceptLimit",
            "(expected: a positive duration of at most 36525d)"),
        Arguments.of(
            "index slice width",
            create(p0, hourlyIndex("")),
            create(p0, index("{\"timePartition\": {\"secondsPerSlice\": 3599}}")),
            ix + "timePartition.secondsPerSlice",
            "3599 (expected: 3600..316224000 seconds)"),
        Arguments.of(
            "index slices of the write window",
            create(p0, hourlyIndex("\"acceptLimit\": \"1789200s\"")),
            create(p0, hourlyIndex("\"acceptLimit\": \"1789201s\"")),
            ix + "acceptLimit",
            "1789201s (expected: at most 500 index slices across the write window"),
        Arguments.of(
            "index slices held until delete_after",
            create(p0, hourlyIndexRetention("17985600s")),
            create(p0, hourlyIndexRetention("17985601s")),
            "persistence_configuration[1].lifecycleConfigs.lifecycleConfig[0].config.delete_after",
            "(expected: at most 5000 index slices held until delete_after; slices of 3600s need 5001"),
        Arguments.of(
            "index refresh interval",
            create(p0, index("{\"indexConfig\": {\"refreshInterval\": \"1s\"}}")),
            create(p0, index("{\"indexConfig\": {\"refreshInterval\": \"999ms\"}}")),
            ix + "indexConfig.refreshInterval",
            "999ms (expected: at least 1s)"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("bounds")
  void accepts_a_bound_at_its_limit_and_refuses_one_past(
      String name, String atLimit, String past, String field, String expected) {
    assertThat(map(atLimit).settings()).isNotNull();
    assertThatThrownBy(() -> map(past))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ").contains(expected);
            });
  }

  @Test
  void refuses_the_configuration_that_exhausted_memory_naming_the_slice_width() {
    String hostile =
        "{\"namespace\":\"x\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\",\"config\":"
            + "{\"timePartition\":{\"secondsPerTimeSlice\":\"1\",\"secondsPerTimeBucket\":\"1\"},\"acceptLimit\":\"100000d\"}}]}";

    assertThatThrownBy(() -> map(hostile))
        .hasMessage(
            "persistence_configuration[0].config.timePartition.secondsPerTimeSlice: 1 (expected: 3600..316224000 seconds)");
  }

  @Test
  void refuses_a_long_accept_limit_with_valid_slices_before_planning_them() {
    assertThatThrownBy(() -> map(create(primary("{" + HOURLY + ", \"acceptLimit\": \"100000d\"}"))))
        .hasMessage(
            P
                + ".config.acceptLimit: 8640000000s (expected: a positive duration of at most 36525d)");
  }

  @Test
  void counts_the_servers_future_limit_in_the_write_window() {
    NamespaceConfigMapper farAhead = new NamespaceConfigMapper("varve", Duration.ofDays(30));
    CreateNamespaceRequest request =
        ProtoJson.parse(
            create(primary("{" + HOURLY + ", \"acceptLimit\": \"3589200s\"}")),
            CreateNamespaceRequest.getDefaultInstance());

    assertThat(map(create(primary("{" + HOURLY + ", \"acceptLimit\": \"3589200s\"}"))).settings())
        .isNotNull();
    assertThatThrownBy(
            () -> farAhead.map(request.getNamespace(), request.getPersistenceConfigurationList()))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> assertThat(e.getMessage()).contains("futureLimit (2592000s)"));
  }

  @Test
  void a_duration_protobuf_calls_invalid_is_refused_naming_the_key_not_thrown_as_a_defect() {
    // gRPC callers can send nanos of the wrong sign or seconds beyond protobuf's range
    CreateNamespaceRequest valid =
        ProtoJson.parse(
            create(primary("{" + HOURLY + ", \"acceptLimit\": \"36h\"}")),
            CreateNamespaceRequest.getDefaultInstance());
    for (com.google.protobuf.Duration bad :
        List.of(
            com.google.protobuf.Duration.newBuilder().setSeconds(1).setNanos(-1).build(),
            com.google.protobuf.Duration.newBuilder().setSeconds(Long.MIN_VALUE).build())) {
      CreateNamespaceRequest.Builder request = valid.toBuilder();
      request.getPersistenceConfigurationBuilder(0).getConfigBuilder().setAcceptLimit(bad);
      assertThatThrownBy(
              () -> MAPPER.map(request.getNamespace(), request.getPersistenceConfigurationList()))
          .isInstanceOf(InvalidFieldException.class)
          .hasMessageContaining("persistence_configuration[0].config.acceptLimit")
          .hasMessageContaining("a valid duration");
    }
  }
}
