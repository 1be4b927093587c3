package io.varve.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.server.admission.AdmissionControl;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.auth.Permission;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every RPC that needs the WRITE permission pays from the write budget, every other from the read
 * budget.
 */
class AdmissionBudgetsTest {

  @Test
  void writes_of_every_service_are_paid_from_the_write_budget_and_reads_from_the_read_budget() {
    AdmissionControl admission =
        new AdmissionControl(
            new AdmissionSettings(
                1 << 20, 1 << 20, Duration.ofSeconds(1), 1 << 20, Duration.ofSeconds(30)),
            new SimpleMeterRegistry(),
            () -> Duration.ZERO,
            () -> Duration.ZERO);
    for (ApiCall<?, ?> call : ApiCalls.ALL) {
      String rpc = call.method().getBareMethodName();
      assertThat(admission.budgetOf(rpc).kind())
          .as(rpc)
          .isEqualTo(call.permission() == Permission.WRITE ? "write" : "read");
    }
    assertThat(admission.budgetOf("PutItems").kind()).isEqualTo("write");
    assertThat(admission.budgetOf("DeleteItems").kind()).isEqualTo("write");
    assertThat(admission.budgetOf("GetItems").kind()).isEqualTo("read");
  }
}
