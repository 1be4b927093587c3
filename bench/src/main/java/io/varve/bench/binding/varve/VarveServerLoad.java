package io.varve.bench.binding.varve;

import io.varve.bench.binding.BindingOptions;
import io.varve.bench.load.LoadSource;
import io.varve.bench.load.ServerLoadOptions;
import io.varve.options.OptionValues;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import site.ycsb.DBException;

/**
 * The Varve server's own metrics, scraped from its {@code /metrics} (Prometheus text) every second
 * at {@code varve.url}, with {@code varve.token} and {@code varve.cacert}: totals {@code
 * varve_server.cpu_ms} (the server process's CPU time), {@code varve_server.requests} and {@code
 * varve_server.failed_requests} (API calls served, and those that failed or were refused), {@code
 * varve_server.admission_refused} and {@code varve_server.cassandra_requests}; levels {@code
 * varve_server.cpu_usage} (the process's share of the machine's CPUs) and {@code
 * varve_server.buffer_queue_events}.
 */
public final class VarveServerLoad implements LoadSource {

  private final HttpClient http;
  private final HttpRequest request;

  private Map<String, Double> levels = Map.of();

  private VarveServerLoad(HttpClient http, HttpRequest request) {
    this.http = http;
    this.request = request;
  }

  /**
   * The server's metrics when the properties ask for them ({@code serverload.varve}, on by default
   * for the {@code varve} and {@code varve-kv} bindings); empty otherwise.
   */
  public static List<LoadSource> sources(String binding, Properties props, PrintStream warnings)
      throws DBException {
    OptionValues load = BindingOptions.read(ServerLoadOptions.ALL, props);
    boolean varve = "varve".equals(binding) || "varve-kv".equals(binding);
    if (!load.optional(ServerLoadOptions.VARVE).orElse(varve)) {
      return List.of();
    }
    try {
      OptionValues p = BindingOptions.read(VarveOptions.CONNECTION, props);
      URI base = p.get(VarveOptions.URL);
      HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
      Optional<Path> caCert = p.optional(VarveOptions.CA_CERT);
      if (caCert.isPresent()) {
        http.sslContext(trusting(caCert.get()));
      }
      HttpRequest.Builder request =
          HttpRequest.newBuilder(base.resolve("/metrics")).timeout(Duration.ofSeconds(2)).GET();
      p.optional(VarveOptions.TOKEN).ifPresent(t -> request.header("Authorization", "Bearer " + t));
      return List.of(new VarveServerLoad(http.build(), request.build()));
    } catch (DBException | java.security.GeneralSecurityException | java.io.IOException e) {
      // a bad connection property is the binding's to refuse, as it starts
      warnings.println("load: the Varve server's metrics are not sampled: " + e.getMessage());
      return List.of();
    }
  }

  @Override
  public String name() {
    return "Varve server metrics (" + request.uri() + ")";
  }

  @Override
  public Map<String, Double> totals() throws Exception {
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "GET " + request.uri() + " answered " + response.statusCode());
    }
    Map<String, Double> totals = new TreeMap<>();
    Map<String, Double> now = new TreeMap<>();
    response
        .body()
        .lines()
        .forEach(
            line -> {
              if (line.isEmpty() || line.startsWith("#")) {
                return;
              }
              int brace = line.indexOf('{');
              int space = line.indexOf(' ');
              String name = line.substring(0, brace > 0 && brace < space ? brace : space);
              String labels =
                  brace > 0 && brace < space ? line.substring(brace, line.indexOf('}') + 1) : "";
              String[] rest =
                  line.substring(labels.isEmpty() ? space : line.indexOf('}') + 1)
                      .trim()
                      .split(" ");
              double value;
              try {
                value = Double.parseDouble(rest[0]);
              } catch (NumberFormatException e) {
                return;
              }
              switch (name) {
                case "process_cpu_time_ns_total" ->
                    totals.merge("varve_server.cpu_ms", value / 1e6, Double::sum);
                case "varve_api_requests_total" -> {
                  totals.merge("varve_server.requests", value, Double::sum);
                  if (labels.contains("result=\"failure\"")) {
                    totals.merge("varve_server.failed_requests", value, Double::sum);
                  }
                }
                case "varve_admission_refused_total" ->
                    totals.merge("varve_server.admission_refused", value, Double::sum);
                case "varve_cassandra_requests_seconds_count" ->
                    totals.merge("varve_server.cassandra_requests", value, Double::sum);
                case "process_cpu_usage" -> now.merge("varve_server.cpu_usage", value, Double::sum);
                case "varve_buffer_queue_events" ->
                    now.merge("varve_server.buffer_queue_events", value, Double::sum);
                default -> {}
              }
            });
    levels = now;
    return totals;
  }

  @Override
  public Map<String, Double> levels() {
    return levels;
  }

  /** A TLS context that trusts the certificates of a PEM file. */
  private static SSLContext trusting(Path pem)
      throws java.security.GeneralSecurityException, java.io.IOException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = Files.newInputStream(pem)) {
      int i = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca" + i++, c);
      }
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }
}
