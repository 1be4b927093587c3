package io.varve.local.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeToolTest {

  private static final Path VARVE = Path.of("/work/varve");

  @Test
  void runs_on_the_nodes_jars_against_its_own_local_jmx_port_with_cassandras_module_access() {
    LocalCassandraSettings node2 =
        LocalCassandraCluster.forDevelopment(VARVE, 3).node(2).settings();

    List<String> command = NodeTool.command(node2, List.of("repair", "--full", "system_auth"));

    assertThat(command.get(0)).isEqualTo(node2.javaExecutable().toString());
    assertThat(command).containsSubsequence(CassandraCommandLine.JAVA17_MODULE_ACCESS);
    assertThat(command)
        .containsSubsequence(
            "-cp", node2.libDirectory().resolve("*").toString(), NodeTool.MAIN_CLASS)
        .containsSubsequence("-h", "127.0.0.1", "-p", "7200", "repair", "--full", "system_auth")
        .contains(
            "-Dlogback.configurationFile="
                + node2.confDirectory().resolve(CassandraConfigWriter.TOOLS_LOGBACK));
  }
}
