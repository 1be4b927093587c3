package io.varve.server.transport;

import com.google.protobuf.Message;
import com.linecorp.armeria.common.logging.RequestLogProperty;
import com.linecorp.armeria.server.ServiceRequestContext;
import io.grpc.MethodDescriptor;
import io.varve.core.error.VarveException;
import io.varve.server.auth.ApiPermissions;
import io.varve.server.auth.Permission;
import io.varve.server.auth.TokenGrant;
import io.varve.server.metrics.SloCounters;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One RPC of the API as written in {@link ApiCalls}: the generated gRPC method it serves, the one
 * permission it needs and the handler that answers it. Made only by {@link #needs} or {@link
 * #lists}, both of which take the permission: no RPC is open by default.
 *
 * @param method the method of a service in {@link Transports#SERVICES}
 * @param permission the permission the caller needs, on the namespace {@link #scope} says
 * @param scope whether the permission is checked on the request's namespace or on each namespace of
 *     the answer
 * @param guard the permission check around a call of the handler
 * @param namespace the request's namespace, for an RPC that names one
 * @param handler the handler's method that answers the RPC, given the server's handlers
 */
record ApiCall<Q extends Message, R extends Message>(
    MethodDescriptor<Q, R> method,
    Permission permission,
    Scope scope,
    Guard<Q, R> guard,
    Optional<Function<Q, String>> namespace,
    Function<ApiHandlers, Function<Q, CompletionStage<R>>> handler) {

  /** Which namespaces the permission is checked on. */
  enum Scope {
    /** The request's {@code namespace}, before the handler runs: refused calls do nothing. */
    REQUEST_NAMESPACE,
    /** Each namespace of the answer: the caller gets only those it has the permission on. */
    ANSWER_NAMESPACES
  }

  /** A call of {@code handler} on behalf of {@code caller}, within the permission. */
  interface Guard<Q, R> {
    CompletionStage<R> call(TokenGrant caller, Q request, Function<Q, CompletionStage<R>> handler);
  }

  /** An RPC that needs {@code permission} on the namespace its request names. */
  static <Q extends Message, R extends Message> ApiCall<Q, R> needs(
      Permission permission,
      MethodDescriptor<Q, R> method,
      Function<Q, String> namespace,
      Function<ApiHandlers, Function<Q, CompletionStage<R>>> handler) {
    Guard<Q, R> guard =
        (caller, request, call) -> {
          ApiPermissions.check(
              caller, method.getBareMethodName(), permission, namespace.apply(request));
          return call.apply(request);
        };
    return new ApiCall<>(
        method, permission, Scope.REQUEST_NAMESPACE, guard, Optional.of(namespace), handler);
  }

  /**
   * An RPC that lists namespaces: any caller may make it, and {@code keep} leaves in its answer
   * only the namespaces the caller has {@code permission} on.
   */
  static <Q extends Message, R extends Message> ApiCall<Q, R> lists(
      Permission permission,
      MethodDescriptor<Q, R> method,
      BiFunction<R, Predicate<String>, R> keep,
      Function<ApiHandlers, Function<Q, CompletionStage<R>>> handler) {
    Guard<Q, R> guard =
        (caller, request, call) ->
            call.apply(request)
                .thenApply(
                    answer ->
                        keep.apply(answer, namespace -> caller.allows(permission, namespace)));
    return new ApiCall<>(
        method, permission, Scope.ANSWER_NAMESPACES, guard, Optional.empty(), handler);
  }

  /**
   * The RPC answered by its handler among {@code handlers}; behind its permission check when {@code
   * authenticated}, with the caller {@link TokenAuthentication} put in the request context.
   */
  Rpc<Q, R> bind(ApiHandlers handlers, boolean authenticated) {
    Function<Q, CompletionStage<R>> call = handler.apply(handlers);
    Function<Q, CompletionStage<R>> guarded =
        authenticated ? request -> guard.call(caller(), request, call) : call;
    if (namespace.isEmpty()) {
      return new Rpc<>(method, guarded);
    }
    // each answer against the namespace's objectives, timed from the request's arrival
    Function<Q, String> name = namespace.get();
    String endpoint = method.getBareMethodName();
    SloCounters slo = handlers.slo();
    return new Rpc<>(
        method,
        request -> {
          long arrived = arrivalNanos();
          CompletionStage<R> answer = guarded.apply(request);
          answer.whenComplete(
              (r, e) -> slo.record(name.apply(request), endpoint, System.nanoTime() - arrived));
          return answer;
        });
  }

  /** When the request being served arrived (its body may have taken a while), else now. */
  private static long arrivalNanos() {
    ServiceRequestContext ctx = ServiceRequestContext.currentOrNull();
    if (ctx != null && ctx.log().isAvailable(RequestLogProperty.REQUEST_START_TIME)) {
      return ctx.log().partial().requestStartTimeNanos();
    }
    return System.nanoTime();
  }

  private static TokenGrant caller() {
    // the authentication decorator always sets it; refusing here keeps a wiring mistake closed
    return TokenAuthentication.caller()
        .orElseThrow(
            () ->
                new VarveException(
                    VarveException.Kind.UNAUTHENTICATED, "no authenticated caller for this call"));
  }
}
