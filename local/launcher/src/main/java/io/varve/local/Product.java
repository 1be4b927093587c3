package io.varve.local;

/**
 * The servers this launcher runs. What differs between them in messages and command lines is data
 * here, so that one status type, one exception type and one command line serve them all.
 */
public enum Product {

  /** Apache Cassandra, package {@code io.varve.local.cassandra}. */
  CASSANDRA("cassandra", "Cassandra", "node"),

  /** DynamoDB Local, package {@code io.varve.local.dynamodb}. */
  DYNAMODB("dynamodb", "DynamoDB Local", "server"),

  /** A single-node OpenSearch, package {@code io.varve.local.opensearch}. */
  OPENSEARCH("opensearch", "OpenSearch", "node"),

  /** The Varve server itself ({@code varve serve}), package {@code io.varve.local.server}. */
  VARVE("varve", "Varve server", "server");

  private final String label;
  private final String displayName;
  private final String noun;

  Product(String label, String displayName, String noun) {
    this.label = label;
    this.displayName = displayName;
    this.noun = noun;
  }

  /**
   * The server's name on command lines and in files, like {@code ./varve local cassandra}: the
   * first word of every line a launcher prints.
   */
  public String label() {
    return label;
  }

  /** How messages name the server, like {@code DynamoDB Local}. */
  public String displayName() {
    return displayName;
  }

  /** What the server calls itself in messages: {@code node} or {@code server}. */
  public String noun() {
    return noun;
  }
}
