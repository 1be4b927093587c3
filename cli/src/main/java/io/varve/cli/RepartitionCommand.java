package io.varve.cli;

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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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
      defaultValue = "127.0.0.1:9042",
      description =
          "Where the reshaper reaches the namespace's cluster (default: ${DEFAULT-VALUE}); a list"
              + " of hosts is host1,host2:port.")
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
          "YAML of further reshaper job sections (spark, rateLimit, writer, failures, progress;"
              + " docs/reshaper.md), added to the job this command writes.")
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
    String hosts;
    int port;
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
      int colon = cassandra.lastIndexOf(':');
      if (colon <= 0 || !cassandra.substring(colon + 1).matches("[0-9]{1,5}")) {
        throw new InvalidFieldException("--cassandra", cassandra, "host:port or host1,host2:port");
      }
      hosts = cassandra.substring(0, colon);
      port = Integer.parseInt(cassandra.substring(colon + 1));
      if (job != null && !Files.isReadable(job)) {
        throw new InvalidFieldException("--job", job.toString(), "a readable YAML file");
      }
    } catch (InvalidFieldException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
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
      Path file = jobFile(pending, hosts, port);
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
   * The reshaper's job: the slice table to the pending one, on one cluster, with the {@code
   * timeSlice} section of the new settings; its savepoint beside it, named after the two tables, so
   * a rerun resumes.
   */
  private Path jobFile(SliceRepartition p, String hosts, int port) throws IOException {
    Path dir = workDir.resolve(p.getKeyspace() + "." + p.getTargetTable());
    Files.createDirectories(dir);
    List<String> lines = new ArrayList<>();
    lines.add("# written by varve timeseries repartition");
    for (String side : List.of("source", "target")) {
      lines.add(side + ":");
      lines.add("  type: cassandra");
      lines.add("  host: " + quoted(hosts));
      lines.add("  port: " + port);
      if (datacenter != null) {
        lines.add("  localDC: " + quoted(datacenter));
      }
      lines.add("  keyspace: " + quoted(p.getKeyspace()));
      lines.add(
          "  table: " + quoted(side.equals("source") ? p.getSourceTable() : p.getTargetTable()));
      if (side.equals("source")) {
        lines.add("  preserveTimestamps: true");
      }
    }
    lines.add("timeSlice:");
    lines.add("  start: " + quoted(Times.instant(p.getSliceStart()).toString()));
    lines.add("  end: " + quoted(Times.instant(p.getSliceEnd()).toString()));
    lines.add("  secondsPerTimeBucket: " + p.getSecondsPerTimeBucket());
    lines.add("  eventBuckets: " + p.getEventBuckets());
    lines.add("savepoints:");
    lines.add("  path: " + quoted(dir.toAbsolutePath().toString()));
    if (job != null) {
      lines.add("# from " + job);
      lines.addAll(Files.readAllLines(job, StandardCharsets.UTF_8));
    }
    Path file = dir.resolve("job.yaml");
    Files.write(file, lines, StandardCharsets.UTF_8);
    return file;
  }

  /** A YAML double-quoted scalar. */
  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private VarveClient client(URI url) {
    VarveClientBuilder builder =
        VarveClient.builder().endpoint(url).retries(0, Duration.ZERO, Duration.ZERO);
    if (token != null) {
      builder.bearerToken(token);
    }
    return builder.build();
  }
}
