package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvChunking;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class KvChunkOptionsTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static ServerSettings parse(String yaml) throws Exception {
    return ServerSettings.parse(YAML.readTree(yaml));
  }

  @Test
  void the_defaults_chunk_above_one_mib_up_to_64_mib() throws Exception {
    ServerSettings s = parse("{}");
    assertThat(s.kvChunks()).isEqualTo(KvChunking.DEFAULT);
    assertThat(s.kv().maxValueBytes()).isEqualTo(s.kvChunks().threshold());
  }

  @Test
  void the_threshold_is_also_the_largest_inline_row() throws Exception {
    ServerSettings s =
        parse("kv: {chunks: {threshold: 262144, chunkSize: 131072, sweepInterval: 5s}}");
    assertThat(s.kvChunks().threshold()).isEqualTo(256 * 1024);
    assertThat(s.kv().maxValueBytes()).isEqualTo(256 * 1024);
    assertThat(s.kvChunks().sweepInterval()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void a_grace_within_the_token_age_is_refused_naming_it() {
    assertThatThrownBy(() -> parse("kv: {chunks: {grace: 5m}}"))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("kv.chunks.grace")
        .hasMessageContaining("maxTokenAge");
  }

  @Test
  void a_largest_value_below_the_threshold_is_refused_naming_it() {
    assertThatThrownBy(() -> parse("kv: {chunks: {threshold: 4194304, maxValueBytes: 2097152}}"))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("kv.chunks.maxValueBytes");
  }
}
