package io.varve.local;

/**
 * The servers this launcher runs. What differs between them in messages, pid files and command
 * lines is data here, so that one status type, one exception type and one command line serve all
 * three.
 */
public enum Product {

  /** Apache Cassandra, package {@code io.varve.local.cassandra}. */
  CASSANDRA("cassandra", "Cassandra", "node"),

  /** DynamoDB Local, package {@code io.varve.local.dynamodb}. */
  DYNAMODB("dynamodb", "DynamoDB Local", "server"),

  /** A single-node OpenSearch, package {@code io.varve.local.opensearch}. */
  OPENSEARCH("opensearch", "OpenSearch", "node");

  private final String label;
  private final String displayName;
  private final String noun;

  Product(String label, String displayName, String noun) {
    this.label = label;
    this.displayName = displayName;
    this.noun = noun;
  }

  /**
   * The name on the command line and in files: {@code ./varve local <label>}, the first word of
   * every line a launcher prints, and the pid file {@code <home>/<label>.pid}.
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
