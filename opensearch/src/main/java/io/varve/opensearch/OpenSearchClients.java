package io.varve.opensearch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.util.Timeout;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchAsyncClient;
import org.opensearch.client.transport.OpenSearchTransport;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;

/**
 * Builds the OpenSearch client of a deployment: endpoints, basic authentication, TLS trust,
 * timeouts.
 */
public final class OpenSearchClients {

  private OpenSearchClients() {}

  /** An async client over a pooled HTTP/1.1 transport; close its {@code _transport()} when done. */
  public static OpenSearchAsyncClient open(OpenSearchSettings settings) {
    HttpHost[] hosts =
        settings.urls().stream().map(OpenSearchClients::host).toArray(HttpHost[]::new);
    SSLContext ssl = settings.tls().map(OpenSearchClients::sslContext).orElse(null);
    boolean verifyHosts =
        settings.tls().map(OpenSearchSettings.Tls::hostnameValidation).orElse(true);
    int connections = Math.max(16, settings.bulkConcurrency() * 4);
    OpenSearchTransport transport =
        ApacheHttpClient5TransportBuilder.builder(hosts)
            .setMapper(new JacksonJsonpMapper())
            .setRequestConfigCallback(
                request ->
                    request
                        .setResponseTimeout(
                            Timeout.ofMilliseconds(settings.requestTimeout().toMillis()))
                        .setConnectionRequestTimeout(
                            Timeout.ofMilliseconds(settings.requestTimeout().toMillis())))
            .setHttpClientConfigCallback(
                client -> {
                  if (settings.username().isPresent()) {
                    BasicCredentialsProvider credentials = new BasicCredentialsProvider();
                    for (HttpHost host : hosts) {
                      credentials.setCredentials(
                          new AuthScope(host),
                          new UsernamePasswordCredentials(
                              settings.username().get(),
                              settings.password().orElse("").toCharArray()));
                    }
                    client.setDefaultCredentialsProvider(credentials);
                  }
                  ClientTlsStrategyBuilder tls = ClientTlsStrategyBuilder.create();
                  if (ssl != null) {
                    tls.setSslContext(ssl);
                  }
                  if (!verifyHosts) {
                    tls.setHostnameVerifier(NoopHostnameVerifier.INSTANCE);
                  }
                  return client.setConnectionManager(
                      PoolingAsyncClientConnectionManagerBuilder.create()
                          .setMaxConnTotal(connections)
                          .setMaxConnPerRoute(connections)
                          .setTlsStrategy(tls.buildAsync())
                          .build());
                })
            .build();
    return new OpenSearchAsyncClient(transport);
  }

  private static HttpHost host(URI url) {
    return new HttpHost(url.getScheme(), url.getHost(), url.getPort());
  }

  private static SSLContext sslContext(OpenSearchSettings.Tls tls) {
    try (InputStream in = Files.newInputStream(tls.truststore())) {
      String name = tls.truststore().getFileName().toString().toLowerCase(java.util.Locale.ROOT);
      KeyStore store = KeyStore.getInstance(name.endsWith(".jks") ? "JKS" : "PKCS12");
      store.load(in, tls.truststorePassword().toCharArray());
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "opensearch.tls.truststore " + tls.truststore() + " cannot be read", e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "opensearch.tls.truststore " + tls.truststore() + ": " + e.getMessage(), e);
    }
  }
}
