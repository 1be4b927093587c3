package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python example of the chunked protocol (docs/examples/kv_parts.py) run as the docs say: stubs
 * generated from the protos with grpc_tools, a grpcio channel of default options (4 MiB messages),
 * a 64 MiB value written and read in parts. {@code ./varve test} installs the Python it needs and
 * names it in {@code varve.test.python}.
 */
class PythonPartsExampleIT {

  static final String META = "varve_python_parts_it";
  static final String KS = "python_parts_it";

  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer(ServerSettings.defaults(), META, KS);
    ChunkFixtures.createNamespace(server, "python_parts", "python_parts_it");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static String python() {
    String python = System.getProperty("varve.test.python", "");
    assertThat(python)
        .as(
            "varve.test.python: a Python with grpcio, grpcio-tools and google-crc32c (./varve test"
                + " installs one in .varve/python)")
        .isNotBlank();
    return python;
  }

  static List<String> run(Path dir, List<String> command) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
    builder.environment().put("PYTHONPATH", dir.resolve("gen").toString());
    Process p = builder.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).as(output).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", command) + "\n" + output).isZero();
    return output.lines().filter(l -> !l.isBlank()).toList();
  }

  static List<String> protos(Path root) throws IOException {
    List<String> protos = new ArrayList<>();
    for (String dir : List.of("varve/common/v1", "varve/kv/v1")) {
      try (Stream<Path> files = Files.list(root.resolve(dir))) {
        files
            .filter(f -> f.toString().endsWith(".proto"))
            .forEach(f -> protos.add(root.relativize(f).toString()));
      }
    }
    return protos;
  }

  @Test
  void the_python_example_writes_and_reads_64_mib_in_parts_with_default_channel_options(
      @TempDir Path dir) throws Exception {
    Path home = Path.of(System.getProperty("varve.home", ".."));
    Path protoRoot = home.resolve("api/src/main/proto");
    Files.createDirectories(dir.resolve("gen"));
    List<String> protoc =
        new ArrayList<>(
            List.of(
                python(),
                "-m",
                "grpc_tools.protoc",
                "-I",
                protoRoot.toString(),
                "--python_out=gen",
                "--grpc_python_out=gen"));
    protoc.addAll(protos(protoRoot));
    run(dir, protoc);

    List<String> lines =
        run(
            dir,
            List.of(
                python(),
                home.resolve("docs/examples/kv_parts.py").toString(),
                "127.0.0.1:" + server.server.port(),
                "python_parts"));
    assertThat(lines).contains("put 67108864 bytes in 64 parts");
    assertThat(lines).contains("read 67108864 bytes in parts, byte-exact: True");
    assertThat(lines)
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith("without the chunking signal: FAILED_PRECONDITION")
                    .contains("chunking"));

    // what Python wrote is what any other client reads
    byte[] read =
        ChunkFixtures.get(ChunkFixtures.grpc(server), "python_parts", "python-example", "large")
            .getValue()
            .toByteArray();
    assertThat(read).hasSize(64 * 1024 * 1024);
    for (int i = 0; i < read.length; i += 4099) {
      assertThat(read[i]).as("byte %d", i).isEqualTo((byte) (i % 256));
    }
  }
}
