package io.varve.server.transport;

import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.RequestHeaders;
import com.linecorp.armeria.common.ResponseHeaders;
import com.linecorp.armeria.common.ResponseHeadersBuilder;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import com.linecorp.armeria.server.SimpleDecoratingHttpService;
import io.netty.util.AttributeKey;
import io.varve.core.error.PermissionDeniedException;
import io.varve.core.error.VarveException;
import io.varve.server.auth.AuthSettings;
import io.varve.server.auth.Permission;
import io.varve.server.auth.TokenGrant;
import io.varve.server.auth.TokenVerifier;
import io.varve.server.error.ErrorMapping;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Function;

/**
 * Authentication of HTTP requests by bearer token: the decorators of the API (gRPC and {@code
 * /v1/}) and, when configured, of {@code /metrics} and {@code /docs/}. An API call's token grant is
 * kept in its request context for {@link ApiCalls}, which checks permissions. A missing or unknown
 * token is answered 401 ({@code UNAUTHENTICATED}) before the request is read.
 */
public final class TokenAuthentication {

  static final AttributeKey<TokenGrant> CALLER =
      AttributeKey.valueOf(TokenAuthentication.class, "caller");

  private final AuthSettings settings;
  private final TokenVerifier verifier;

  public TokenAuthentication(AuthSettings settings) {
    this.settings = settings;
    this.verifier = new TokenVerifier(settings.tokens());
  }

  /** The decorator of the API: any configured token; none when authentication is off. */
  Function<? super HttpService, ? extends HttpService> api() {
    if (!settings.enabled()) {
      return Function.identity();
    }
    return delegate -> new Guard(delegate, null);
  }

  /**
   * The decorator of {@code /metrics} ({@link Permission#METRICS}) or {@code /docs/} ({@link
   * Permission#DOCS}): a token with that permission, sent as a bearer token or as the password of
   * HTTP basic authentication (which browsers prompt for); none unless {@code
   * server.auth.authenticateMetrics} / {@code authenticateDocs} is on.
   */
  public Function<? super HttpService, ? extends HttpService> page(Permission permission) {
    boolean on =
        switch (permission) {
          case METRICS -> settings.authenticateMetrics();
          case DOCS -> settings.authenticateDocs();
          default ->
              throw new IllegalArgumentException(permission + " is not the permission of a page");
        };
    return on ? delegate -> new Guard(delegate, permission) : Function.identity();
  }

  /** The grant of the token that authenticated the current request, if any. */
  static Optional<TokenGrant> caller() {
    ServiceRequestContext ctx = ServiceRequestContext.currentOrNull();
    return Optional.ofNullable(ctx == null ? null : ctx.attr(CALLER));
  }

  private final class Guard extends SimpleDecoratingHttpService {

    private final Permission page;

    Guard(HttpService delegate, Permission page) {
      super(delegate);
      this.page = page;
    }

    @Override
    public HttpResponse serve(ServiceRequestContext ctx, HttpRequest req) throws Exception {
      Optional<TokenGrant> caller = verifier.verify(presented(req.headers(), page != null));
      if (caller.isEmpty()) {
        String expected =
            page == null
                ? "an Authorization: Bearer <token> header"
                : "a token with the "
                    + page.configName()
                    + " permission, as Authorization: Bearer <token> or as the"
                    + " password of basic authentication";
        return refuse(
            new VarveException(
                VarveException.Kind.UNAUTHENTICATED,
                "missing or unknown bearer token (expected: " + expected + ")"),
            page == null ? "Bearer realm=\"varve\"" : "Basic realm=\"varve\", charset=\"UTF-8\"");
      }
      if (page != null && !caller.get().allows(page)) {
        return refuse(
            new PermissionDeniedException(
                "",
                ctx.path()
                    + " needs a token with the "
                    + page.configName()
                    + " permission; token "
                    + caller.get()),
            null);
      }
      ctx.setAttr(CALLER, caller.get());
      return unwrap().serve(ctx, req);
    }
  }

  /** A 401 (with {@code challenge} as WWW-Authenticate) or 403 answer with the JSON error body. */
  private static HttpResponse refuse(VarveException failure, String challenge) {
    ErrorMapping.Failure f = ErrorMapping.of(failure);
    ResponseHeadersBuilder headers =
        ResponseHeaders.builder(f.httpStatus()).contentType(MediaType.JSON_UTF_8);
    if (challenge != null) {
      headers.add(HttpHeaderNames.WWW_AUTHENTICATE, challenge);
    }
    return HttpResponse.of(
        headers.build(),
        HttpData.ofUtf8(ErrorResponses.body(f.kind().name(), f.field(), f.message())));
  }

  /** The token of an Authorization header: a bearer token, or (when allowed) a basic password. */
  private static String presented(RequestHeaders headers, boolean basic) {
    String value = headers.get(HttpHeaderNames.AUTHORIZATION);
    if (value == null) {
      return null;
    }
    int space = value.indexOf(' ');
    if (space < 0) {
      return null;
    }
    String scheme = value.substring(0, space);
    String credentials = value.substring(space + 1).trim();
    if (scheme.equalsIgnoreCase("Bearer")) {
      return credentials;
    }
    if (basic && scheme.equalsIgnoreCase("Basic")) {
      try {
        String decoded =
            new String(Base64.getDecoder().decode(credentials), StandardCharsets.UTF_8);
        int colon = decoded.indexOf(':');
        return colon < 0 ? null : decoded.substring(colon + 1);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return null;
  }
}
