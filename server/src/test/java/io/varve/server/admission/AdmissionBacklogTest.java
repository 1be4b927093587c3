package io.varve.server.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.server.admission.AdmissionControl.Transport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AdmissionBacklogTest {

  final AtomicReference<Duration> decoding = new AtomicReference<>(Duration.ZERO);
  final AtomicReference<Duration> store = new AtomicReference<>(Duration.ZERO);
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final AdmissionControl admission =
      new AdmissionControl(AdmissionSettings.auto(), metrics, decoding::get, store::get);

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
}
