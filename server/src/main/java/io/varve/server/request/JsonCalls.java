package io.varve.server.request;

import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.server.ServiceRequestContext;
import io.netty.util.AttributeKey;

/**
 * Which requests came over HTTP/JSON rather than gRPC. A gRPC client bounds the messages it takes
 * (4 MiB unless raised) and a read must keep its answers within that bound; an HTTP/JSON client has
 * no such bound, and reads answer it whole as before.
 */
public final class JsonCalls {

  private static final AttributeKey<Boolean> JSON = AttributeKey.valueOf(JsonCalls.class, "JSON");

  private JsonCalls() {}

  /** Marks the request of {@code ctx} as an HTTP/JSON call ({@code POST /v1/<Rpc>}). */
  public static void mark(ServiceRequestContext ctx) {
    ctx.setAttr(JSON, true);
  }

  /**
   * Whether the request being served on this thread came over HTTP/JSON: marked by the JSON
   * binding, or sent as JSON to a gRPC path (an unframed request). Ask where the request's context
   * is current (a handler's first line). False outside a request.
   */
  public static boolean current() {
    ServiceRequestContext ctx = ServiceRequestContext.currentOrNull();
    if (ctx == null) {
      return false;
    }
    if (Boolean.TRUE.equals(ctx.attr(JSON))) {
      return true;
    }
    MediaType type = ctx.request().contentType();
    return type != null && type.is(MediaType.JSON);
  }
}
