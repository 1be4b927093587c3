package io.varve.perf.search;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.IndexConfig;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.TimeSlice;
import io.varve.client.CallSettings;
import io.varve.client.ControlPlaneClient;
import io.varve.client.VarveClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * The namespace of {@code varve perf search} and the data it leaves: primary slices of a day with
 * buckets of an hour, daily index slices with a 1 s refresh, its items mapped for search; its
 * keyspace, the server's metadata keyspace and its indices, dropped before and after a run.
 */
final class SearchNamespace {

  static final String NAME = "perf_search";

  /** The metadata keyspace of the benchmark's server, apart from {@code varve up}'s. */
  static final String METADATA_KEYSPACE = "varve_perf_search";

  static final String INDEX_DATASET = "perf";

  private static final com.google.protobuf.Duration ACCEPT_LIMIT =
      com.google.protobuf.Duration.newBuilder().setSeconds(129_600).build();

  private SearchNamespace() {}

  /**
   * Creates the namespace and waits until its time slices cover the day from {@code dataFrom} to
   * now.
   */
  static void create(ControlPlaneClient control, String documentMode, long dataFrom)
      throws Exception {
    CreateNamespaceRequest request =
        CreateNamespaceRequest.newBuilder()
            .setNamespace(NAME)
            .addPersistenceConfiguration(
                PersistenceConfiguration.newBuilder()
                    .setId("PRIMARY_STORAGE")
                    .setPhysicalStorage(
                        PhysicalStorage.newBuilder().setType("CASSANDRA").setDataset(NAME))
                    .setConfig(
                        StorageConfig.newBuilder()
                            .setTimePartition(
                                TimePartition.newBuilder()
                                    .setSecondsPerTimeSlice(86_400)
                                    .setSecondsPerTimeBucket(3600))
                            .setConsistencyScope("LOCAL")
                            .setConsistencyTarget("STRONG")
                            .setAcceptLimit(ACCEPT_LIMIT)))
            .addPersistenceConfiguration(
                PersistenceConfiguration.newBuilder()
                    .setId("INDEX_STORAGE")
                    .setPhysicalStorage(
                        PhysicalStorage.newBuilder()
                            .setType("OPENSEARCH")
                            .setCluster("local")
                            .setDataset(INDEX_DATASET))
                    .setConfig(
                        StorageConfig.newBuilder()
                            .setTimePartition(TimePartition.newBuilder().setSecondsPerSlice(86_400))
                            .setAcceptLimit(ACCEPT_LIMIT)
                            .setIndexConfig(
                                IndexConfig.newBuilder()
                                    .putFieldMapping(SearchEvents.DEVICE_TYPE, "KEYWORD")
                                    .putFieldMapping(SearchEvents.COUNTRY, "KEYWORD")
                                    .putFieldMapping(SearchEvents.DURATION, "INTEGER")
                                    .putFieldMapping(SearchEvents.PROBE, "KEYWORD")
                                    .setRefreshInterval(
                                        com.google.protobuf.Duration.newBuilder().setSeconds(1))
                                    .setDocumentMode(documentMode))))
            .build();
    try {
      VarveClient.join(control.createNamespace(request, CallSettings.defaults()));
    } catch (StatusRuntimeException e) {
      throw ApiCalls.failed("CreateNamespace " + ApiCalls.json(request), e);
    }
    // Writes need the time slices of the whole day; the server creates them in the background.
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (true) {
      List<TimeSlice> slices =
          VarveClient.join(control.getNamespace(NAME, CallSettings.defaults())).getTimeSlicesList();
      boolean covered = true;
      for (long t = dataFrom;
          t <= System.currentTimeMillis() + 60_000 && covered;
          t += SearchBenchmark.HOUR) {
        long time = t;
        covered =
            slices.stream()
                .anyMatch(
                    s ->
                        s.getStatus().equals("ACTIVE")
                            && SearchEvents.millis(s.getStartTime()) <= time
                            && time < SearchEvents.millis(s.getEndTime()));
      }
      if (covered) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the time slices of namespace "
                + NAME
                + " do not cover the last 24 h"
                + " after 2 minutes: "
                + slices);
      }
      Thread.sleep(500);
    }
  }

  /**
   * Drops what a run left: the namespace's keyspace, the metadata keyspace, the namespace's
   * indices.
   */
  static void drop(CqlSession session, URI openSearch) throws Exception {
    for (String keyspace : List.of(NAME, METADATA_KEYSPACE)) {
      session.execute(
          SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
              .setTimeout(Duration.ofMinutes(1)));
    }
    HttpClient http = HttpClient.newHttpClient();
    String prefix = INDEX_DATASET + "." + NAME + ".";
    HttpResponse<String> list;
    try {
      list =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          openSearch
                              + "/_cat/indices/"
                              + prefix
                              + "*?h=index&expand_wildcards=all"))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("cannot reach OpenSearch at " + openSearch + ": " + e, e);
    }
    if (list.statusCode() != 200) {
      throw new IllegalStateException(
          "listing the indices "
              + prefix
              + "* on "
              + openSearch
              + " answered HTTP "
              + list.statusCode()
              + ": "
              + list.body());
    }
    for (String index : list.body().split("\n")) {
      index = index.trim();
      if (index.startsWith(prefix)) {
        HttpResponse<String> deleted =
            http.send(
                HttpRequest.newBuilder(URI.create(openSearch + "/" + index))
                    .timeout(Duration.ofSeconds(60))
                    .DELETE()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        if (deleted.statusCode() != 200 && deleted.statusCode() != 404) {
          throw new IllegalStateException(
              "deleting the index "
                  + index
                  + " answered HTTP "
                  + deleted.statusCode()
                  + ": "
                  + deleted.body());
        }
      }
    }
  }
}
