package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.ScannedItem;
import io.varve.api.kv.v1.Selection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ScanItems on the real local Cassandra: segments run side by side cover every item of every record
 * exactly once (a value stored in chunks whole), pages stay within their byte bound, every page
 * token resumes exactly where its page ended, a page stops early (partial) within the namespace's
 * latency max, deleted items are hidden, and malformed requests are refused naming their field.
 */
class KeyValueScanIT {

  static final int PAGE = 20_000;

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  /** Every item written to each namespace: "id/key" to value. */
  static final Map<String, Map<String, ByteString>> written = new HashMap<>();

  @BeforeAll
  static void start() {
    server = new TestServer("varve_kv_scan_it", "kv_scan_it");
    server.createKeyValueNamespace("scan_asc", "kv_scan_it", "scan_asc", "ASC");
    server.createKeyValueNamespace("scan_desc", "kv_scan_it", "scan_desc", "DESC");
    grpc = server.keyValue();
    Random random = new Random(11);
    for (String ns : List.of("scan_asc", "scan_desc")) {
      Map<String, ByteString> items = new HashMap<>();
      // 80 records of 1 to 30 items of 1 B to 3 KB, and one wide record that spans many pages
      for (int r = 0; r <= 80; r++) {
        String id = r == 80 ? "wide" : "rec-" + r;
        int count = r == 80 ? 400 : 1 + random.nextInt(30);
        PutItemsRequest.Builder put =
            PutItemsRequest.newBuilder()
                .setNamespace(ns)
                .setId(id)
                .setIdempotencyToken(KeyValueApiIT.token());
        for (int k = 0; k < count; k++) {
          byte[] value = new byte[1 + random.nextInt(r % 4 == 0 ? 3000 : 100)];
          random.nextBytes(value);
          Item item =
              Item.newBuilder()
                  .setKey(ByteString.copyFromUtf8(String.format("k%03d", k)))
                  .setValue(ByteString.copyFrom(value))
                  .build();
          put.addItems(item);
          items.put(id + "/" + item.getKey().toStringUtf8(), item.getValue());
        }
        grpc.putItems(put.build());
      }
      // a value stored in chunks comes whole, alone in its page
      byte[] big = new byte[1_500_000];
      random.nextBytes(big);
      Item chunked =
          Item.newBuilder()
              .setKey(ByteString.copyFromUtf8("zbig"))
              .setValue(ByteString.copyFrom(big))
              .build();
      grpc.putItems(
          PutItemsRequest.newBuilder()
              .setNamespace(ns)
              .setId("rec-3")
              .setIdempotencyToken(KeyValueApiIT.token())
              .addItems(chunked)
              .build());
      items.put("rec-3/zbig", chunked.getValue());
      // deleted items are hidden from a scan
      grpc.deleteItems(
          DeleteItemsRequest.newBuilder()
              .setNamespace(ns)
              .setId("wide")
              .setIdempotencyToken(KeyValueApiIT.token())
              .setPredicate(
                  Predicate.newBuilder()
                      .setMatchKeys(
                          MatchKeys.newBuilder()
                              .addKeys(ByteString.copyFromUtf8("k010"))
                              .addKeys(ByteString.copyFromUtf8("k200"))))
              .build());
      items.remove("wide/k010");
      items.remove("wide/k200");
      written.put(ns, items);
    }
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void a_scan_under_a_5_ms_max_comes_in_partial_pages_that_cover_every_item_once() {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \"scan_slo\", \"service\": \"KEY_VALUE\","
                + " \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\","
                + " \"physical_storage\": {\"dataset\": \"kv_scan_it\", \"table\": \"scan_slo\","
                + " \"config\": {\"slos\": {\"ScanItems\": {\"latency\": {\"target\": \"0.001s\","
                + " \"max\": \"0.005s\"}}}}}}]}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    List<String> expected = new ArrayList<>();
    for (int r = 0; r < 20; r++) {
      PutItemsRequest.Builder put =
          PutItemsRequest.newBuilder()
              .setNamespace("scan_slo")
              .setId("rec-" + r)
              .setIdempotencyToken(KeyValueApiIT.token());
      for (int k = 0; k < 1000; k++) {
        String key = String.format("k%04d", k);
        put.addItems(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(key))
                .setValue(ByteString.copyFromUtf8("v")));
        expected.add("rec-" + r + "/" + key);
      }
      grpc.putItems(put.build());
    }
    double partialBefore = server.metric("varve_kv_read_pages_partial_total");
    List<String> seen = new ArrayList<>();
    int pages = 0;
    int partial = 0;
    String token = "";
    do {
      ScanItemsResponse page =
          grpc.scanItems(
              ScanItemsRequest.newBuilder().setNamespace("scan_slo").setPageToken(token).build());
      pages++;
      page.getItemsList()
          .forEach(i -> seen.add(i.getId() + "/" + i.getItem().getKey().toStringUtf8()));
      if (page.getPartial()) {
        partial++;
        assertThat(page.getNextPageToken()).isNotEmpty();
      }
      token = page.getNextPageToken();
    } while (!token.isEmpty());

    // 20,000 items of a few bytes fit one 2 MiB page: only the 5 ms max cut it
    assertThat(partial).isGreaterThan(1);
    assertThat(pages).isGreaterThan(partial);
    assertThat(server.metric("varve_kv_read_pages_partial_total") - partialBefore)
        .isGreaterThanOrEqualTo(partial);
    assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void segments_run_side_by_side_cover_every_item_exactly_once_for_1_3_and_7_segments()
      throws Exception {
    ExecutorService workers = Executors.newFixedThreadPool(7);
    try {
      for (String ns : List.of("scan_asc", "scan_desc")) {
        for (int total : new int[] {1, 3, 7}) {
          List<CompletableFuture<List<ScanItemsResponse>>> segments = new ArrayList<>();
          for (int s = 0; s < total; s++) {
            int segment = s;
            segments.add(
                CompletableFuture.supplyAsync(() -> scan(ns, segment, total, ""), workers));
          }
          List<String> seen = new ArrayList<>();
          for (CompletableFuture<List<ScanItemsResponse>> segment : segments) {
            for (ScanItemsResponse page : segment.get()) {
              long bytes = 0;
              for (ScannedItem i : page.getItemsList()) {
                String at = i.getId() + "/" + i.getItem().getKey().toStringUtf8();
                assertThat(i.getItem().getValue()).as(at).isEqualTo(written.get(ns).get(at));
                assertThat(i.getItem().getMetadata().getValueSize())
                    .isEqualTo(i.getItem().getValue().size());
                bytes +=
                    i.getId().length()
                        + i.getItem().getKey().size()
                        + i.getItem().getValue().size();
                seen.add(at);
              }
              assertThat(bytes <= PAGE || page.getItemsCount() == 1).as(bytes + " bytes").isTrue();
            }
          }
          assertThat(seen)
              .as(ns + " in " + total + " segments")
              .doesNotHaveDuplicates()
              .containsExactlyInAnyOrderElementsOf(written.get(ns).keySet());
        }
      }
    } finally {
      workers.shutdownNow();
    }
  }

  @Test
  void each_record_comes_in_clustering_order_and_the_wide_record_spans_pages() {
    for (String ns : List.of("scan_asc", "scan_desc")) {
      List<String> wide = new ArrayList<>();
      int pagesWithWide = 0;
      for (ScanItemsResponse page : scan(ns, 0, 1, "")) {
        boolean any = false;
        for (ScannedItem i : page.getItemsList()) {
          if (i.getId().equals("wide")) {
            wide.add(i.getItem().getKey().toStringUtf8());
            any = true;
          }
        }
        pagesWithWide += any ? 1 : 0;
      }
      List<String> sorted = new ArrayList<>(wide);
      sorted.sort(ns.equals("scan_asc") ? null : java.util.Comparator.reverseOrder());
      assertThat(wide).hasSize(398).containsExactlyElementsOf(sorted);
      assertThat(pagesWithWide).isGreaterThan(1);
    }
  }

  @Test
  void every_page_token_resumes_exactly_where_its_page_ended() {
    for (String ns : List.of("scan_asc", "scan_desc")) {
      List<ScanItemsResponse> pages = scan(ns, 1, 3, "");
      assertThat(pages.size()).isGreaterThan(3);
      for (int p = 0; p + 1 < pages.size(); p++) {
        ScanItemsResponse resumed = page(ns, 1, 3, pages.get(p).getNextPageToken());
        assertThat(resumed.getItemsList()).isEqualTo(pages.get(p + 1).getItemsList());
        assertThat(resumed.getNextPageToken().isEmpty())
            .isEqualTo(pages.get(p + 1).getNextPageToken().isEmpty());
      }
    }
  }

  @Test
  void item_limit_spans_pages_and_values_can_be_left_out() {
    List<ScannedItem> items = new ArrayList<>();
    String token = "";
    do {
      ScanItemsResponse page =
          grpc.scanItems(
              ScanItemsRequest.newBuilder()
                  .setNamespace("scan_asc")
                  .setPageToken(token)
                  .setSelection(
                      Selection.newBuilder()
                          .setPageSizeBytes(500)
                          .setItemLimit(123)
                          .setIncludeValues(false))
                  .build());
      items.addAll(page.getItemsList());
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    assertThat(items).hasSize(123);
    assertThat(items).allSatisfy(i -> assertThat(i.getItem().getValue().isEmpty()).isTrue());
    assertThat(items)
        .allSatisfy(i -> assertThat(i.getItem().getMetadata().getValueSize()).isPositive());
  }

  @Test
  void malformed_requests_are_refused_naming_their_field() {
    String other = scan("scan_asc", 0, 3, "").get(0).getNextPageToken();
    record Case(String body, String field, String message) {}
    List<Case> cases =
        List.of(
            new Case(
                "{\"namespace\": \"scan_asc\", \"total_segments\": 0}",
                "total_segments",
                "1..4096"),
            new Case(
                "{\"namespace\": \"scan_asc\", \"total_segments\": -3}",
                "total_segments",
                "1..4096"),
            new Case(
                "{\"namespace\": \"scan_asc\", \"total_segments\": 2147483647}",
                "total_segments",
                "1..4096"),
            new Case(
                "{\"namespace\": \"scan_asc\", \"segment\": 3, \"total_segments\": 3}",
                "segment",
                "0..2"),
            new Case("{\"namespace\": \"scan_asc\", \"segment\": -1}", "segment", "0..0"),
            new Case(
                "{\"namespace\": \"scan_asc\", \"selection\": {\"page_size_bytes\": -1}}",
                "selection.page_size_bytes",
                "1.."),
            new Case(
                "{\"namespace\": \"scan_asc\", \"selection\": {\"item_limit\": -5}}",
                "selection.item_limit",
                "0 (none) or more"),
            new Case(
                "{\"namespace\": \"scan_asc\", \"segment\": 1, \"total_segments\": 3, \"page_token\": \""
                    + other
                    + "\"}",
                "page_token",
                "this same request"),
            new Case(
                "{\"namespace\": \"scan_asc\", \"page_token\": \"bm90IGEgdG9rZW4=\"}",
                "page_token",
                ""),
            new Case("{\"namespace\": \"Not A Name\"}", "namespace", ""));
    SoftAssertions soft = new SoftAssertions();
    for (Case c : cases) {
      TestServer.Reply reply = server.post("ScanItems", c.body());
      soft.assertThat(reply.status()).as(c.body() + ": " + reply.body()).isEqualTo(400);
      soft.assertThat(reply.errorField()).as(reply.body().toString()).isEqualTo(c.field());
      soft.assertThat(reply.errorMessage()).as(c.body()).contains(c.message());
    }
    soft.assertAll();
  }

  // helpers

  /** Every page of one segment, following the page tokens from {@code token}. */
  static List<ScanItemsResponse> scan(String ns, int segment, int total, String token) {
    List<ScanItemsResponse> pages = new ArrayList<>();
    do {
      ScanItemsResponse page = page(ns, segment, total, token);
      pages.add(page);
      token = page.getNextPageToken();
      // a token that does not move on would loop forever: far more pages than the data fills fail
      assertThat(pages).as("pages of segment " + segment + "/" + total).hasSizeLessThan(1000);
    } while (!token.isEmpty());
    return pages;
  }

  static ScanItemsResponse page(String ns, int segment, int total, String token) {
    return grpc.scanItems(
        ScanItemsRequest.newBuilder()
            .setNamespace(ns)
            .setSegment(segment)
            .setTotalSegments(total)
            .setPageToken(token)
            .setSelection(Selection.newBuilder().setPageSizeBytes(PAGE))
            .build());
  }
}
