package io.varve.server.health;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.healthcheck.HealthCheckService;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code /health}: Armeria's health check service (200 while serving, 503 when a checker fails or
 * the server stops, long-polling for Armeria clients) with a body that says why: {@code {"healthy",
 * "status": "UP"|"DEGRADED"|"DOWN", "workers": {...}, "unservedNamespaces": {...}}}.
 */
public final class HealthReport {

  private static final ObjectMapper JSON = new ObjectMapper();

  private HealthReport() {}

  /**
   * The /health service over {@code workers}, listing {@code unserved} namespaces (name to reason).
   */
  public static HttpService service(
      BackgroundWorkers workers, Supplier<Map<String, String>> unserved) {
    HttpService checks = HealthCheckService.builder().checkers(workers).build();
    return checks.decorate(
        (delegate, ctx, req) -> {
          HttpResponse response = delegate.serve(ctx, req);
          // long-polling requests (Armeria's client-side health checking) keep the service's own
          // answers
          if (req.method() != HttpMethod.GET
              || req.headers().contains(HttpHeaderNames.PREFER)
              || req.headers().contains(HttpHeaderNames.IF_NONE_MATCH)) {
            return response;
          }
          return HttpResponse.of(
              response.aggregate().thenApply(r -> body(r, workers, unserved.get())));
        });
  }

  private static HttpResponse body(
      AggregatedHttpResponse r, BackgroundWorkers workers, Map<String, String> unserved) {
    boolean healthy = r.status().equals(HttpStatus.OK);
    ObjectNode root = JSON.createObjectNode();
    root.put("healthy", healthy);
    root.put("status", !healthy ? "DOWN" : workers.degraded() ? "DEGRADED" : "UP");
    ObjectNode list = root.putObject("workers");
    for (BackgroundWorker.Status s : workers.statuses()) {
      ObjectNode w = list.putObject(s.name());
      w.put("healthy", !s.stale());
      w.put("critical", s.critical());
      w.put("lastSuccess", s.lastSuccess().toString());
      w.put("failures", s.failures());
      s.lastFailure().ifPresent(f -> w.put("lastFailure", f));
    }
    ObjectNode ns = root.putObject("unservedNamespaces");
    unserved.forEach(ns::put);
    return HttpResponse.of(r.status(), MediaType.JSON_UTF_8, root.toString());
  }
}
