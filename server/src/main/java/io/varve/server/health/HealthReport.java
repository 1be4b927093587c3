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
import io.varve.cassandra.session.ClusterSessions;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code /health}: Armeria's health check service (200 while serving, 503 when a checker fails or
 * the server stops, long-polling for Armeria clients) with a body that says why: {@code {"healthy",
 * "status": "UP"|"DEGRADED"|"DOWN", "workers": {...}, "clusters": {...}, "unservedNamespaces":
 * {...}}}.
 *
 * <p>A Cassandra cluster the server cannot reach makes it DEGRADED, not unhealthy: the namespaces
 * of the other clusters are served, and a load balancer must keep sending them. {@code clusters}
 * says which: {@code default} (the cluster of {@code cassandra.contactPoints}) and each cluster of
 * {@code cassandra.clusters}, with {@code reachable}, {@code nodesUp}, {@code nodes} and, when not
 * reachable, {@code error}.
 */
public final class HealthReport {

  private static final ObjectMapper JSON = new ObjectMapper();

  private HealthReport() {}

  /**
   * The /health service over {@code workers}, listing {@code unserved} namespaces (name to reason)
   * and the {@code clusters}' health.
   */
  public static HttpService service(
      BackgroundWorkers workers,
      Supplier<Map<String, String>> unserved,
      Supplier<Map<String, ClusterSessions.Health>> clusters) {
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
              response
                  .aggregate()
                  .thenApply(r -> body(r, workers, unserved.get(), clusters.get())));
        });
  }

  private static HttpResponse body(
      AggregatedHttpResponse r,
      BackgroundWorkers workers,
      Map<String, String> unserved,
      Map<String, ClusterSessions.Health> clusters) {
    boolean healthy = r.status().equals(HttpStatus.OK);
    boolean unreachable = clusters.values().stream().anyMatch(c -> !c.reachable());
    ObjectNode root = JSON.createObjectNode();
    root.put("healthy", healthy);
    root.put("status", !healthy ? "DOWN" : workers.degraded() || unreachable ? "DEGRADED" : "UP");
    ObjectNode list = root.putObject("workers");
    for (BackgroundWorker.Status s : workers.statuses()) {
      ObjectNode w = list.putObject(s.name());
      w.put("healthy", !s.stale());
      w.put("critical", s.critical());
      w.put("lastSuccess", s.lastSuccess().toString());
      w.put("failures", s.failures());
      s.lastFailure().ifPresent(f -> w.put("lastFailure", f));
    }
    ObjectNode cs = root.putObject("clusters");
    clusters.forEach(
        (name, health) -> {
          ObjectNode c = cs.putObject(name);
          c.put("reachable", health.reachable());
          c.put("nodesUp", health.nodesUp());
          c.put("nodes", health.nodes());
          health.error().ifPresent(e -> c.put("error", e));
        });
    ObjectNode ns = root.putObject("unservedNamespaces");
    unserved.forEach(ns::put);
    return HttpResponse.of(r.status(), MediaType.JSON_UTF_8, root.toString());
  }
}
