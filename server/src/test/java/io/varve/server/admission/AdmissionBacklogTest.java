package io.varve.server.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.server.admission.AdmissionControl.Transport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AdmissionBacklogTest {

  final AtomicReference<Duration> decoding = new AtomicReference<>(Duration.ZERO);
  final AtomicReference<Duration> store = new AtomicReference<>(Duration.ZERO);
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final AtomicLong room = new AtomicLong(Long.MAX_VALUE);
  final AdmissionControl admission =
      new AdmissionControl(AdmissionSettings.auto(), metrics, decoding::get, store::get, room::get);

  @Test
  void a_store_behind_refuses_durable_writes_but_not_fire_and_forget_ones_nor_reads() {
    store.set(Duration.ofSeconds(5));
    assertThat(admission.backlog("WriteEventRecordsSync", Transport.GRPC))
        .hasValueSatisfying(
            e ->
                assertThat(e)
                    .hasMessageContaining("waited 5000 ms for their turn to the store")
                    .hasMessageContaining("server.admission.maxWriteQueueDelay 1000 ms"));
    assertThat(admission.backlog("PutItems", Transport.JSON)).isPresent();
    assertThat(admission.backlog("WriteEventRecords", Transport.GRPC))
        .as("the buffer absorbs the store's delays; its capacity bounds it")
        .isEmpty();
    assertThat(admission.backlog("ReadEventRecords", Transport.GRPC)).isEmpty();
    assertThat(
            metrics
                .get("varve.admission.refused")
                .tag("reason", "backlog")
                .tag("transport", "grpc")
                .counter()
                .count())
        .isEqualTo(1);
  }

  @Test
  void a_server_behind_with_decoding_refuses_every_write_but_no_read() {
    decoding.set(Duration.ofMillis(1500));
    assertThat(admission.backlog("WriteEventRecords", Transport.GRPC))
        .hasValueSatisfying(
            e -> assertThat(e).hasMessageContaining("waited 1500 ms for their turn to be decoded"));
    assertThat(admission.backlog("MutateItems", Transport.GRPC)).isPresent();
    assertThat(admission.backlog("GetItems", Transport.GRPC)).isEmpty();
    decoding.set(Duration.ofMillis(1000));
    assertThat(admission.backlog("WriteEventRecords", Transport.GRPC))
        .as("at the bound, not beyond it")
        .isEmpty();
  }

  @Test
  void a_full_buffer_refuses_fire_and_forget_writes_it_has_no_room_for_before_their_body() {
    room.set(1 << 20);
    assertThat(admission.bufferFull("WriteEventRecords", Transport.GRPC, 512 << 10)).isEmpty();
    assertThat(admission.bufferFull("WriteEventRecords", Transport.GRPC, 2 << 20))
        .as("a gRPC body becomes at least as many bytes of queued events")
        .hasValueSatisfying(
            e ->
                assertThat(e)
                    .hasMessageContaining("write buffer is full (1048576 bytes free")
                    .hasMessageContaining("needs at least 2097152"));
    assertThat(admission.bufferFull("WriteEventRecords", Transport.JSON, 2 << 20))
        .as("a JSON body's length is no lower bound of its events")
        .isEmpty();
    room.set(1000);
    assertThat(admission.bufferFull("WriteEventRecords", Transport.JSON, 0))
        .as("less than any request's least cost free: full for every request")
        .isPresent();
    assertThat(admission.bufferFull("WriteEventRecords", Transport.GRPC, 0)).isPresent();
    assertThat(admission.bufferFull("WriteEventRecordsSync", Transport.GRPC, 1 << 30))
        .as("durable writes and reads do not use the buffer")
        .isEmpty();
    assertThat(admission.bufferFull("PutItems", Transport.GRPC, 1 << 30)).isEmpty();
    assertThat(
            metrics.get("varve.admission.refused").tag("reason", "buffer_full").counters().stream()
                .mapToDouble(c -> c.count())
                .sum())
        .isEqualTo(3);
  }
}
