package io.varve.cli;

import picocli.CommandLine.Command;

/** Commands on a TimeSeries namespace's data through the server's control plane. */
@Command(
    name = "timeseries",
    mixinStandardHelpOptions = true,
    description = "Act on the time slices of a TimeSeries namespace.",
    subcommands = {RepartitionCommand.class})
final class TimeSeriesCommand {}
