package io.varve.cli;

import picocli.CommandLine.Command;

/** The index store of search: commands that act on it through the server's control plane. */
@Command(
    name = "index",
    mixinStandardHelpOptions = true,
    description = "Act on the index store of search.",
    subcommands = {BackfillCommand.class})
final class IndexCommand {}
