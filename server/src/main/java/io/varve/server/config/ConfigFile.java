package io.varve.server.config;

import io.varve.options.Options;
import io.varve.options.ReferenceFile;
import java.util.List;

/**
 * The server's YAML file: every option it accepts, and the reference file generated from them
 * ({@code varve-reference.yaml}, bundled with the server; {@code ReferenceConfigTest} keeps the
 * copy in the sources equal to {@link #reference()}).
 */
public final class ConfigFile {

  /** Every option of the file, in the order of the reference file. */
  public static final Options OPTIONS =
      Options.of(
          ServerOptions.ALL,
          CassandraOptions.ALL,
          OpenSearchOptions.ALL,
          TimeSeriesOptions.ALL,
          KvOptions.ALL);

  private static final List<String> HEADER =
      List.of(
          "Varve server configuration: the reference.",
          "",
          "Every key the server accepts is listed here, set to its default, so this file loaded as is gives exactly"
              + " the settings the server uses without a file. Keys whose default is \"absent\" (server TLS,"
              + " credentials) are commented out as \"#key: example\"; remove the \"#\" to enable them. Lines starting"
              + " with \"# \" are explanations.",
          "",
          "Start the server with:  varve serve --config /path/to/varve.yaml",
          "A copy needs only the keys it changes; an unknown key is refused with its full name. Durations are an"
              + " integer and a unit: ms, s, m, h or d (e.g. 500ms, 30s, 1h); zero is refused.",
          "",
          "No key can change at runtime: the file is read once at start, and a restart applies a change. Every key"
              + " is described in docs/server-configuration.md. This file is generated from the server's option"
              + " declarations (io.varve.server.config.*Options); edit those, not this file.");

  private ConfigFile() {}

  /** The text of the reference file. */
  public static String reference() {
    return ReferenceFile.render(OPTIONS, HEADER);
  }
}
