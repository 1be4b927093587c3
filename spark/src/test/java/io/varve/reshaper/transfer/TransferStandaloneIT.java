package io.varve.reshaper.transfer;

import static io.varve.reshaper.datasource.VarveServerFixture.bytes;
import static io.varve.reshaper.datasource.VarveServerFixture.item;
import static io.varve.reshaper.datasource.VarveServerFixture.micros;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.testing.TestCassandraCluster;
import io.varve.reshaper.SparkStandalone;
import io.varve.reshaper.datasource.VarveServerFixture;
import io.varve.reshaper.datasource.VarveServerFixture.Item;
import io.varve.reshaper.datasource.VarveServerFixture.KvItem;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code varve export} and {@code varve import} submitted with {@code spark-submit} to a Spark
 * standalone cluster (a master and two workers of a real Spark 3.5.9) against the tests' three-node
 * Cassandra cluster, as docs/spark-data-sources.md describes: a TimeSeries namespace and a KeyValue
 * namespace with a chunked value exported and imported into fresh namespaces exactly; one worker is
 * SIGKILLed with its executor while the KeyValue import pauses between a value's chunks and its
 * item row, and the import still finishes exactly. Runs with {@code ./varve test spark-cluster} (a
 * distribution at {@code -Dvarve.spark.home}); skipped otherwise.
 */
class TransferStandaloneIT {

  private static final String EVENTS = "xs_events";
  private static final String EVENTS_COPY = "xs_events_copy";
  private static final String ITEMS = "xs_items";
  private static final String ITEMS_COPY = "xs_items_copy";
  private static final String[] SERIES = {"a", "b", "c"};

  @TempDir Path dir;

  @Test
  void export_and_import_submitted_to_a_standalone_cluster_round_trip_with_a_worker_lost()
      throws Exception {
    Path sparkHome =
        Path.of(
            System.getProperty(
                "varve.spark.home",
                VarveHome.locate().resolve(".varve/spark/spark-3.5.9").toString()));
    assumeTrue(
        Files.isExecutable(sparkHome.resolve("bin/spark-submit")), "no Spark at " + sparkHome);
    LocalCassandraCluster cluster = TestCassandraCluster.get();
    try (CqlSession session =
        CqlSession.builder()
            .addContactPoints(cluster.contactPoints())
            .withLocalDatacenter(TestCassandraCluster.localDatacenter())
            .build()) {
      for (String ks : List.of(EVENTS, EVENTS_COPY, ITEMS, ITEMS_COPY, "xferstand_meta")) {
        session.execute(
            SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + ks)
                .setTimeout(Duration.ofSeconds(60)));
      }
    }
    try (VarveServerFixture server =
            new VarveServerFixture(
                "xferstand", cluster.contactPoints(), TestCassandraCluster.localDatacenter());
        SparkStandalone spark =
            new SparkStandalone(sparkHome, dir.resolve("spark"), 27177, 28180)) {
      Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
      server.post("CreateNamespace", VarveServerFixture.namespace(EVENTS, 600, 2, "1h"));
      server.post("CreateNamespace", VarveServerFixture.namespace(EVENTS_COPY, 1800, 4, "1h"));
      server.awaitSliceAt(EVENTS, now.minus(Duration.ofMinutes(50)));
      server.awaitSliceAt(EVENTS_COPY, now.minus(Duration.ofMinutes(50)));
      List<Item> events = writeEvents(server, now);
      server.post("CreateNamespace", VarveServerFixture.kvNamespace(ITEMS));
      server.post("CreateNamespace", VarveServerFixture.kvNamespace(ITEMS_COPY));
      Set<KvItem> items = putItems(server, now);
      spark.start(2);
      InetSocketAddress contact = cluster.contactPoints().get(0);

      Path eventsOut = dir.resolve("events");
      assertThat(submit(spark, server, contact, "export", EVENTS, "--out", eventsOut)).isZero();
      assertThat(submit(spark, server, contact, "import", EVENTS_COPY, "--in", eventsOut)).isZero();
      Set<Item> back = new HashSet<>();
      for (String series : SERIES) {
        back.addAll(
            server.read(
                EVENTS_COPY,
                series,
                now.minus(Duration.ofHours(2)).toString(),
                now.plus(Duration.ofHours(1)).toString()));
      }
      assertThat(back).containsExactlyInAnyOrderElementsOf(events);

      Path itemsOut = dir.resolve("items");
      assertThat(submit(spark, server, contact, "export", ITEMS, "--out", itemsOut)).isZero();
      Path log = dir.resolve("import-items.log");
      Process importing =
          spark
              .submit(
                  submitArgs(
                      spark,
                      server,
                      contact,
                      List.of(
                          "--conf",
                          "spark.executor.extraJavaOptions=-Dvarve.test.kv.pauseAfterChunkStaging=4000"),
                      "import",
                      ITEMS_COPY,
                      "--in",
                      itemsOut),
                  log)
              .start();
      try (CqlSession session =
          CqlSession.builder()
              .addContactPoints(cluster.contactPoints())
              .withLocalDatacenter(TestCassandraCluster.localDatacenter())
              .build()) {
        spark.killWorkerDuring(
            importing,
            () ->
                session.execute("SELECT id FROM " + ITEMS_COPY + ".items_chunks LIMIT 1").one()
                    != null,
            log);
      }
      Set<String> ids = items.stream().map(KvItem::id).collect(Collectors.toSet());
      assertThat(server.getItems(ITEMS_COPY, ids)).containsExactlyInAnyOrderElementsOf(items);
    }
  }

  /** Runs {@code spark-submit ... <verb> --namespace NS <flag> DIR}; its exit status. */
  private int submit(
      SparkStandalone spark,
      VarveServerFixture server,
      InetSocketAddress contact,
      String verb,
      String namespace,
      String flag,
      Path path)
      throws Exception {
    Path log = dir.resolve(verb + "-" + namespace + ".log");
    Process p =
        spark
            .submit(submitArgs(spark, server, contact, List.of(), verb, namespace, flag, path), log)
            .start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).as(verb + " finished").isTrue();
    assertThat(p.exitValue()).as(Files.readString(log)).isZero();
    return p.exitValue();
  }

  private static List<String> submitArgs(
      SparkStandalone spark,
      VarveServerFixture server,
      InetSocketAddress contact,
      List<String> conf,
      String verb,
      String namespace,
      String flag,
      Path path) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--master",
                spark.masterUrl(),
                "--deploy-mode",
                "client",
                "--conf",
                "spark.driver.host=127.0.0.1",
                "--conf",
                "spark.executor.memory=512m"));
    args.addAll(conf);
    args.addAll(
        List.of(
            "--class",
            "io.varve.reshaper.cli.ReshaperCli",
            Path.of("target/varve-reshaper-spark-submit.jar").toAbsolutePath().toString(),
            verb,
            "--namespace",
            namespace,
            flag,
            path.toString(),
            "-o",
            "host=" + contact.getHostString(),
            "-o",
            "port=" + contact.getPort(),
            "-o",
            "localDC=" + TestCassandraCluster.localDatacenter(),
            "-o",
            "metadataKeyspace=" + server.metadataKeyspace));
    return args;
  }

  /** 60 one-item events per series over the last 50 minutes. */
  private static List<Item> writeEvents(VarveServerFixture server, Instant now) {
    List<Item> items = new ArrayList<>();
    List<String> json = new ArrayList<>();
    for (String series : SERIES) {
      for (int i = 0; i < 60; i++) {
        long time = now.minus(Duration.ofSeconds(20 + i * 47L)).toEpochMilli() + i;
        byte[] value = ("event " + series + i).getBytes(StandardCharsets.UTF_8);
        Item item = Item.of(series, time, "e" + i, bytes("k"), value);
        items.add(item);
        json.add(
            "{\"timeSeriesId\": \""
                + series
                + "\", \"eventTime\": \""
                + Instant.ofEpochMilli(time)
                + "\", \"eventId\": \"e"
                + i
                + "\", \"eventItems\": [{\"eventItemKey\": \""
                + item.key()
                + "\", \"eventItemValue\": \""
                + item.value()
                + "\"}]}");
      }
    }
    server.post(
        "WriteEventRecordsSync",
        "{\"namespace\": \"" + EVENTS + "\", \"events\": [" + String.join(", ", json) + "]}");
    return items;
  }

  /** 20 records of small items, and two records each with a 3 MiB value (chunked). */
  private static Set<KvItem> putItems(VarveServerFixture server, Instant now) {
    Set<KvItem> items = new HashSet<>();
    long generation = micros(now.minusSeconds(60));
    for (int r = 0; r < 20; r++) {
      byte[] value = bytes("value " + r);
      server.put(ITEMS, "rec-" + r, generation, "t", List.of(item(bytes("k"), value)));
      items.add(KvItem.of("rec-" + r, bytes("k"), value, generation));
    }
    for (int r = 0; r < 2; r++) {
      byte[] big = new byte[3 << 20];
      new Random(r).nextBytes(big);
      server.put(ITEMS, "big-" + r, generation, "t", List.of(item(bytes("v"), big)));
      items.add(KvItem.of("big-" + r, bytes("v"), big, generation));
    }
    return items;
  }
}
