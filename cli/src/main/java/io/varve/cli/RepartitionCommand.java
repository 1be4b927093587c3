package io.varve.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.CommitSliceRepartitionRequest;
import io.varve.api.timeseries.v1.PrepareSliceRepartitionRequest;
import io.varve.api.timeseries.v1.SliceRepartition;
import io.varve.client.CallSettings;
import io.varve.client.Times;
import io.varve.client.VarveClient;
import io.varve.client.VarveClientBuilder;
import io.varve.command.ExitStatus;
import io.varve.core.error.InvalidFieldException;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code varve timeseries repartition}: rewrites a slice that receives no more writes into a table
 * of other partition settings, in four steps each safe to run again: {@code
 * PrepareSliceRepartition} (the server creates, or finds again, the pending table), the reshaper's
 * copy with a {@code timeSlice} job (resumed from its savepoint after a kill), its row-for-row
 * validation, and {@code CommitSliceRepartition} (the swap). A difference found by the validation
 * stops before the swap.
 *
 * <p>Exit statuses: {@code OK} swapped; {@code COMPLETED_WITH_ERRORS} the validation found missing
 * or mismatched rows (nothing swapped; the pending table stays for a rerun); {@code INVALID_INPUT}
 * a usage error or a request the server refused (a slice still accepting writes, bad settings);
 * {@code ABORTED_TOO_MANY_ERRORS} and {@code ABORTED_FATAL_ERROR} as the reshaper's, or the server
 * unreachable.
 */
@Command(
    name = "repartition",
    mixinStandardHelpOptions = true,
    description = {
      "Rewrite a time slice that receives no more writes into a new table with other bucket"
          + " settings: the server prepares the table, the reshaper copies and validates the"
          + " events, the server swaps the slice to it; the old table is dropped after a grace.",
      "Run it again after a failure or a kill: it resumes. Exits with 1 when the validation finds"
          + " differences (nothing is swapped), 2 when the server refuses (a slice still accepting"
          + " writes, bad settings)."
    })
final class RepartitionCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--namespace", required = true, description = "The TimeSeries namespace.")
  String namespace;

  @Option(
      names = "--slice",
      required = true,
      paramLabel = "TIME",
      description = "The slice's start, as ListTimeSlices shows it (RFC 3339).")
  String slice;

  @Option(
      names = "--event-buckets",
      paramLabel = "K",
      description = "New event buckets, 1..64. Absent: the slice's own.")
  Integer eventBuckets;

  @Option(
      names = "--seconds-per-time-bucket",
      paramLabel = "T",
      description =
          "New time bucket width in seconds, dividing the slice's width. Absent: the slice's own;"
              + " with neither option, the recommendation of the slice's histogram.")
  Long secondsPerTimeBucket;

  @Option(
      names = "--server",
      paramLabel = "URL",
      defaultValue = Instances.DEFAULT_SERVER,
      description = "The Varve server (default: ${DEFAULT-VALUE}).")
  String server;

  @Option(names = "--token", description = "Bearer token with the admin permission, if required.")
  String token;

  @Option(
      names = "--cassandra",
      paramLabel = "HOST:PORT",
      description =
          "Where the reshaper reaches the namespace's cluster (default: 127.0.0.1:9042); a list of"
              + " hosts is host1,host2:port. Refused when the --job file names the hosts.")
  String cassandra;

  @Option(
      names = "--datacenter",
      paramLabel = "DC",
      description = "The cluster's local data center for the reshaper (localDC).")
  String datacenter;

  @Option(
      names = "--job",
      paramLabel = "FILE",
      description =
          "A reshaper job file (docs/reshaper.md) without keyspaces, tables or timeSlice: its"
              + " source (and target) connection keys, such as credentials and sslOptions, and"
              + " its sections (spark, rateLimit, writer, failures) go into the job the command"
              + " runs.")
  Path job;

  @Option(
      names = "--work-dir",
      paramLabel = "DIR",
      defaultValue = ".varve/repartition",
      description = "Where the job file and its savepoint are kept (default: ${DEFAULT-VALUE}).")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    URI url;
    Instant start;
    PrepareSliceRepartitionRequest.Builder prepare =
        PrepareSliceRepartitionRequest.newBuilder().setNamespace(namespace);
    try {
      url = ServerSettings.url("--server", server);
      start = BackfillCommand.instant("--slice", slice);
      prepare.setSliceStart(Times.timestamp(start));
      if (eventBuckets != null) {
        prepare.setEventBuckets(eventBuckets);
      }
      if (secondsPerTimeBucket != null) {
        prepare.setSecondsPerTimeBucket(secondsPerTimeBucket);
      }
      if (cassandra != null && !cassandra.matches("[^:\\s]+:[0-9]{1,5}")) {
        throw new InvalidFieldException("--cassandra", cassandra, "host:port or host1,host2:port");
      }
      if (job != null && !Files.isReadable(job)) {
        throw new InvalidFieldException("--job", job.toString(), "a readable YAML file");
      }
    } catch (InvalidFieldException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    ObjectNode base = baseJob(); // checked before anything is asked of the server
    for (String side : List.of("source", "target")) {
      if (cassandra != null && base.path(side).has("host")) {
        throw new ParameterException(
            spec.commandLine(),
            "--cassandra: "
                + cassandra
                + " (expected: absent, the --job file gives "
                + side
                + ".host "
                + base.path(side).get("host").asText()
                + ")");
      }
    }
    Path home = Path.of(System.getProperty("varve.home", "."));
    try (VarveClient client = client(url)) {
      SliceRepartition pending;
      try {
        pending =
            VarveClient.join(
                client
                    .controlPlane()
                    .prepareSliceRepartition(prepare.build(), CallSettings.defaults()));
      } catch (StatusRuntimeException e) {
        return refused("PrepareSliceRepartition", e);
      }
      System.out.println(
          "repartition: slice ["
              + Times.instant(pending.getSliceStart())
              + ", "
              + Times.instant(pending.getSliceEnd())
              + ") of "
              + namespace
              + ": "
              + pending.getKeyspace()
              + "."
              + pending.getSourceTable()
              + " -> "
              + pending.getTargetTable()
              + " ("
              + pending.getEventBuckets()
              + " event buckets, "
              + pending.getSecondsPerTimeBucket()
              + " s time buckets)");
      Path file = jobFile(pending, base);
      int copied = ReshaperProcess.run(home, List.of("migrate", "--config", file.toString()));
      if (copied != ExitStatus.OK.code()) {
        System.err.println(
            "repartition: the copy ended with status "
                + copied
                + "; nothing is swapped, run the command again to resume");
        return copied;
      }
      int validated =
          ReshaperProcess.run(home, List.of("migrate", "validate", "--config", file.toString()));
      if (validated != ExitStatus.OK.code()) {
        System.err.println(
            "repartition: the validation ended with status "
                + validated
                + "; nothing is swapped (the pending table stays for a rerun, or"
                + " CancelSliceRepartition drops it)");
        return validated;
      }
      SliceRepartition committed;
      try {
        committed =
            VarveClient.join(
                client
                    .controlPlane()
                    .commitSliceRepartition(
                        CommitSliceRepartitionRequest.newBuilder()
                            .setNamespace(namespace)
                            .setSliceStart(pending.getSliceStart())
                            .setTable(pending.getTargetTable())
                            .build(),
                        CallSettings.defaults()));
      } catch (StatusRuntimeException e) {
        return refused("CommitSliceRepartition", e);
      }
      System.out.println(
          "repartition: the slice is read from "
              + committed.getKeyspace()
              + "."
              + committed.getTargetTable()
              + " from now on; "
              + committed.getSourceTable()
              + " is dropped after "
              + Times.instant(committed.getSourceDropTime()));
      return ExitStatus.OK.code();
    } catch (IOException e) {
      System.err.println("varve: " + e.getMessage());
      return ExitStatus.ABORTED_FATAL_ERROR.code();
    }
  }

  private int refused(String rpc, StatusRuntimeException e) {
    ServerCallFailure failure = ServerCallFailure.of(rpc, server, e);
    System.err.println("varve: " + failure.message());
    return failure.status().code();
  }

  /**
   * The reshaper's job: the slice table to the pending one, with the {@code timeSlice} section of
   * the new settings, its savepoint beside it (named after the two tables, so a rerun resumes). The
   * sides' connection keys (host, port, localDC, credentials, sslOptions ...) and the job's other
   * sections come from {@code --job} when it has them; the target takes the source's connection
   * when it has none of its own; {@code --cassandra} and {@code --datacenter} fill what neither
   * gives.
   */
  private Path jobFile(SliceRepartition p, ObjectNode doc) throws IOException {
    Path dir = workDir.resolve(p.getKeyspace() + "." + p.getTargetTable());
    Files.createDirectories(dir);
    ObjectNode source = side(doc, "source");
    if (!doc.has("target")) {
      doc.set("target", source.deepCopy());
    }
    ObjectNode target = side(doc, "target");
    for (ObjectNode side : List.of(source, target)) {
      if (!side.has("host")) {
        side.put("host", hosts());
        side.put("port", port());
      }
      if (datacenter != null && !side.has("localDC")) {
        side.put("localDC", datacenter);
      }
      side.put("keyspace", p.getKeyspace());
    }
    source.put("table", p.getSourceTable());
    target.put("table", p.getTargetTable());
    if (!source.has("preserveTimestamps")) {
      source.put("preserveTimestamps", true);
    }
    ObjectNode slice = doc.putObject("timeSlice");
    slice.put("start", Times.instant(p.getSliceStart()).toString());
    slice.put("end", Times.instant(p.getSliceEnd()).toString());
    slice.put("secondsPerTimeBucket", p.getSecondsPerTimeBucket());
    slice.put("eventBuckets", p.getEventBuckets());
    if (!doc.has("savepoints")) {
      doc.putObject("savepoints").put("path", dir.toAbsolutePath().toString());
    }
    Path file = dir.resolve("job.yaml");
    YAML.writeValue(file.toFile(), doc);
    return file;
  }

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** The {@code --job} file's mapping, the keys the command sets refused; or an empty one. */
  private ObjectNode baseJob() throws IOException {
    if (job == null) {
      return YAML.createObjectNode();
    }
    JsonNode read;
    try {
      read = YAML.readTree(job.toFile());
    } catch (IOException e) {
      throw new ParameterException(
          spec.commandLine(),
          "--job: " + job + " (expected: a YAML job file: " + e.getMessage() + ")");
    }
    if (!(read instanceof ObjectNode doc)) {
      throw new ParameterException(
          spec.commandLine(), "--job: " + job + " (expected: a YAML mapping of job sections)");
    }
    if (doc.has("timeSlice")) {
      throw new ParameterException(
          spec.commandLine(),
          "--job: " + job + " has timeSlice (expected: absent; the command sets it)");
    }
    for (String side : List.of("source", "target")) {
      for (String key : List.of("keyspace", "table")) {
        if (doc.path(side).has(key)) {
          throw new ParameterException(
              spec.commandLine(),
              "--job: "
                  + job
                  + " has "
                  + side
                  + "."
                  + key
                  + " (expected: absent; the command names the slice's tables)");
        }
      }
    }
    return doc;
  }

  private ObjectNode side(ObjectNode doc, String name) {
    JsonNode side = doc.get(name);
    if (side == null) {
      return doc.putObject(name);
    }
    if (!(side instanceof ObjectNode mapping)) {
      throw new ParameterException(
          spec.commandLine(), "--job: " + name + " (expected: a mapping of connection keys)");
    }
    return mapping;
  }

  private String hosts() {
    String c = cassandra == null ? DEFAULT_CASSANDRA : cassandra;
    return c.substring(0, c.lastIndexOf(':'));
  }

  private int port() {
    String c = cassandra == null ? DEFAULT_CASSANDRA : cassandra;
    return Integer.parseInt(c.substring(c.lastIndexOf(':') + 1));
  }

  static final String DEFAULT_CASSANDRA = "127.0.0.1:9042";

  private VarveClient client(URI url) {
    VarveClientBuilder builder =
        VarveClient.builder().endpoint(url).retries(0, Duration.ZERO, Duration.ZERO);
    if (token != null) {
      builder.bearerToken(token);
    }
    return builder.build();
  }
}
