package io.varve.reshaper.dynamodb;

/**
 * A value, or an attribute, that has no form on the other side: a CQL value DynamoDB cannot hold
 * (NaN, a decimal of more than 38 digits, nesting deeper than 32 levels...), or an attribute that
 * is not a value of the column's CQL type. The message names what was found and what was expected,
 * so that it can be kept as a bad row's reason as it is.
 */
public final class UnmappableValueException extends RuntimeException {

  UnmappableValueException(String message) {
    super(message);
  }
}
