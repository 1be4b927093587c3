package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.core.error.InvalidFieldException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerSettingsFixesTest {

  private static ServerSettings parse(String yaml) throws Exception {
    return ServerSettings.parse(new ObjectMapper(new YAMLFactory()).readTree(yaml));
  }

  private static void refused(String yaml, String field) {
    assertThatThrownBy(() -> parse(yaml))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  void an_empty_or_comment_only_file_means_all_defaults(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("varve.yaml");
    Files.writeString(file, "# nothing set\n");
    assertThat(ServerSettings.load(file)).isEqualTo(ServerSettings.defaults());
  }

  @Test
  void accepts_ports_written_as_strings() throws Exception {
    assertThat(parse("server:\n  port: \"8081\"").port()).isEqualTo(8081);
  }

  @Test
  void refuses_overflowing_durations_naming_the_key() {
    refused("cassandra:\n  requestTimeout: 99999999999999999999s", "cassandra.requestTimeout");
    refused("cassandra:\n  requestTimeout: 999999999999999d", "cassandra.requestTimeout");
  }

  @Test
  void refuses_null_or_empty_bearer_tokens() {
    refused("server:\n  auth:\n    bearerTokens: [~]", "server.auth.bearerTokens[0]");
    refused("server:\n  auth:\n    bearerTokens: [\"ok\", \"\"]", "server.auth.bearerTokens[1]");
  }

  @Test
  void refuses_tls_keys_that_would_silently_leave_tls_off() {
    refused("server:\n  tls:\n    privateKey: key.pem", "server.tls.certificateChain");
    refused("cassandra:\n  tls:\n    keystore: client.p12", "cassandra.tls.truststore");
  }
}
