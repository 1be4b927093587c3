package io.varve.server.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.ScannedItem;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LargeBytesJsonTest {

  private final ProtoJson json = new ProtoJson();

  private static ByteString random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return ByteString.copyFrom(b);
  }

  /** The document both ways: the plain printer's, and the large values written in pieces. */
  private void samePrinted(Message message) throws Exception {
    String plain = json.print(message);
    byte[] bytes = json.printUtf8(message);
    assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(plain);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    json.printTo(message, out);
    assertThat(out.toByteArray()).isEqualTo(bytes);
    assertThat(ProtoJson.parse(plain, message.getDefaultInstanceForType())).isEqualTo(message);
  }

  @Test
  void a_page_of_large_and_small_values_prints_as_the_plain_printer_does() throws Exception {
    GetItemsResponse page =
        GetItemsResponse.newBuilder()
            .addItems(
                Item.newBuilder().setKey(ByteString.copyFromUtf8("k\u00e9")).setValue(random(3, 1)))
            .addItems(Item.newBuilder().setKey(random(10, 2)).setValue(random(1_000_001, 3)))
            .addItems(Item.newBuilder().setKey(random(70_000, 4)).setValue(random(65_536, 5)))
            .addItems(Item.newBuilder().setKey(random(1, 6)).setValue(random(200_002, 7)))
            .setNextPageToken("t\u00f6ken")
            .build();
    samePrinted(page);
  }

  @Test
  void nested_large_values_of_a_scan_page_print_as_the_plain_printer_does() throws Exception {
    ScanItemsResponse.Builder page = ScanItemsResponse.newBuilder();
    for (int i = 0; i < 4; i++) {
      page.addItems(
          ScannedItem.newBuilder()
              .setId("record \u20ac" + i)
              .setItem(Item.newBuilder().setKey(random(5, i)).setValue(random(100_000 + i, i))));
    }
    samePrinted(page.build());
  }

  @Test
  void small_messages_and_values_just_under_the_bound_print_plainly() throws Exception {
    samePrinted(GetItemsResponse.getDefaultInstance());
    samePrinted(
        GetItemsResponse.newBuilder()
            .addItems(Item.newBuilder().setValue(random(LargeBytesJson.LARGE_BYTES - 1, 8)))
            .build());
  }

  @Test
  void a_64_mib_value_is_written_whole_in_base64_and_reads_back() {
    ByteString value = random(64 * 1024 * 1024, 9);
    GetItemsResponse page =
        GetItemsResponse.newBuilder().addItems(Item.newBuilder().setValue(value)).build();
    byte[] out = json.printUtf8(page);
    String text = new String(out, StandardCharsets.ISO_8859_1);
    String encoded = java.util.Base64.getEncoder().encodeToString(value.toByteArray());
    String expected =
        "{\"items\":[{\"key\":\"\",\"value\":\""
            + encoded
            + "\"}],\"nextPageToken\":\"\",\"partial\":false,\"partPageTokens\":[]}";
    // compared as a whole, reported by its ends: a report of two 90 MB strings would be lost
    assertThat(text.equals(expected))
        .as(
            "%d characters (expected %d), ending %s",
            text.length(), expected.length(), text.substring(Math.max(0, text.length() - 120)))
        .isTrue();
  }
}
