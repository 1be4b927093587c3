package io.varve.options;

/**
 * A mapping of options, e.g. {@code cassandra.tls}.
 *
 * @param path the full key of the section; empty for the root
 * @param doc what the section is for (Markdown, one paragraph); empty when undocumented
 * @param optional whether the section is absent by default and setting it turns a feature on (TLS):
 *     the reference file shows it commented out
 */
public record Section(String path, String doc, boolean optional) {

  /** The last part of the path. */
  public String name() {
    return path.substring(path.lastIndexOf('.') + 1);
  }
}
