package io.varve.client;

import java.util.List;

/**
 * One page of a paged read, as a paging iterator returns it.
 *
 * @param items the page's items, in the server's order
 * @param nextPageToken the token of the next page; empty on the last page
 * @param partial whether the server cut the page short to meet its latency objective (only with
 *     {@link Paging#ACCEPT_PARTIAL_PAGES})
 * @param <T> the item type
 */
public record Page<T>(List<T> items, String nextPageToken, boolean partial) {

  /** Copies {@code items}. */
  public Page {
    items = List.copyOf(items);
  }

  /** Whether another page follows. */
  public boolean hasNext() {
    return !nextPageToken.isEmpty();
  }

  /**
   * The {@code partial} flag of a response message, false when its type has none: a server of an
   * older version answers without it.
   */
  static boolean partial(com.google.protobuf.Message response) {
    com.google.protobuf.Descriptors.FieldDescriptor field =
        response.getDescriptorForType().findFieldByName("partial");
    return field != null
        && field.getJavaType() == com.google.protobuf.Descriptors.FieldDescriptor.JavaType.BOOLEAN
        && (Boolean) response.getField(field);
  }
}
