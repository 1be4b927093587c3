package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.local.VarveHome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code varve up}'s options: which local servers it starts and what it gives the server. Starts nothing. */
class UpCommandTest {

  @Test
  void startsOpenSearchBeforeCassandraAndGivesItToTheServer() {
    UpCommand up = CommandLine.populateCommand(new UpCommand());
    assertThat(up.nodes()).extracting(LocalNode::name).containsExactly("opensearch", "cassandra");
    assertThat(up.nodes().get(0).address()).isEqualTo("http://127.0.0.1:9200");
    assertThat(String.join(" ", up.serverArgs()))
        .isEqualTo("--port 8080 --cassandra 127.0.0.1:9042 --opensearch http://127.0.0.1:9200");
  }

  @Test
  void theOpenSearchPortReachesTheNodeAndTheServer() {
    UpCommand up = CommandLine.populateCommand(new UpCommand(), "--opensearch-port", "9201", "--port", "8081");
    assertThat(up.nodes().get(0).address()).isEqualTo("http://127.0.0.1:9201");
    assertThat(up.serverArgs()).containsSubsequence("--port", "8081").containsSubsequence("--opensearch",
        "http://127.0.0.1:9201");
  }

  @Test
  void noOpenSearchStartsCassandraAloneAndTheServerWithoutIndexStore() {
    UpCommand up = CommandLine.populateCommand(new UpCommand(), "--no-opensearch", "--config", "varve.yaml");
    assertThat(up.nodes()).extracting(LocalNode::name).containsExactly("cassandra");
    assertThat(up.serverArgs()).doesNotContain("--opensearch").containsSubsequence("--config", "varve.yaml");
  }

  /** A checkout without OpenSearch built: the same early failure as a machine without a JDK 21+. */
  @Test
  void whenOpenSearchCannotStartNothingStartsAndTheMessageNamesNoOpenSearch(@TempDir Path home) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    PrintStream stdout = System.out;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    System.setProperty(VarveHome.PROPERTY, home.toString());
    try {
      assertThat(VarveCli.run("up")).isEqualTo(1);
    } finally {
      System.clearProperty(VarveHome.PROPERTY);
      System.setErr(stderr);
      System.setOut(stdout);
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("OpenSearch is not built")
        .contains("./varve up --no-opensearch");
    assertThat(home.resolve(".varve/cassandra")).doesNotExist();
    assertThat(home.resolve(".varve/server")).doesNotExist();
  }
}
