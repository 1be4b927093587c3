package io.varve.verify.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProcStatusTest {

  private static final String STATUS =
      """
      Name:	java
      Umask:	0022
      State:	S (sleeping)
      Pid:	4242
      VmPeak:	 9876543 kB
      VmHWM:	 1600000 kB
      VmRSS:	 1234567 kB
      Threads:	97
      """;

  @Test
  void reads_kb_fields_as_bytes() {
    assertThat(ProcStatus.fieldBytes(STATUS, "VmRSS")).isEqualTo(OptionalLong.of(1234567L * 1024));
    assertThat(ProcStatus.fieldBytes(STATUS, "VmHWM")).isEqualTo(OptionalLong.of(1600000L * 1024));
  }

  @Test
  void a_missing_or_unitless_field_is_empty() {
    assertThat(ProcStatus.fieldBytes(STATUS, "VmSwap")).isEmpty();
    assertThat(ProcStatus.fieldBytes(STATUS, "Threads")).isEmpty();
    assertThat(ProcStatus.fieldBytes("", "VmRSS")).isEmpty();
  }

  @Test
  void a_field_name_that_prefixes_another_does_not_match_it() {
    assertThat(ProcStatus.fieldBytes("VmRSSX:\t12 kB\n", "VmRSS")).isEmpty();
  }

  @Test
  void reads_this_process() {
    assertThat(ProcStatus.read(ProcessHandle.current().pid(), "VmRSS").orElse(0))
        .isGreaterThan(1024 * 1024);
  }

  @Test
  void heap_sizes_in_megabytes() {
    assertThat(RssSampler.megabytes("1g")).isEqualTo(1024);
    assertThat(RssSampler.megabytes("512m")).isEqualTo(512);
    assertThat(RssSampler.megabytes("2G")).isEqualTo(2048);
  }
}
