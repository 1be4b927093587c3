package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code varve serve}'s overrides of the configuration. */
class ServeCommandTest {

  @Test
  void opensearch_urls_override_the_configuration() {
    assertThat(
            ServeCommand.settings(
                    null, null, null, List.of("http://127.0.0.1:9200", "https://os2:9243"))
                .opensearch()
                .urls())
        .containsExactly(URI.create("http://127.0.0.1:9200"), URI.create("https://os2:9243"));
    assertThat(ServeCommand.settings(null, null, null, null).opensearch().urls()).isEmpty();
  }

  @Test
  void a_bad_opensearch_url_is_named() {
    assertThatThrownBy(() -> ServeCommand.settings(null, null, null, List.of("127.0.0.1:9200")))
        .hasMessage(
            "--opensearch: \"127.0.0.1:9200\" (expected: http://host:port or https://host:port)");
  }
}
