package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.ListNamespacesRequest;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.server.json.ProtoJson;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The request and response examples of the docs are valid: every {@code curl} example's body
 * parses as its RPC's request (and a namespace configuration maps), and every JSON block marked
 * {@code <!-- example: MessageName -->} parses as that message.
 */
class DocExamplesTest {

  private static final List<String> PAGES = List.of("api.md", "namespace-configuration.md", "limits.md");
  private static final Pattern CURL = Pattern.compile(
      "http://127\\.0\\.0\\.1:8080/v1/(\\w+)[^\\n]*(?:\\n[^\\n]*?)*?<<'EOF'\\n(.*?)\\nEOF", Pattern.DOTALL);
  private static final Pattern MARKED = Pattern.compile("<!-- example: (\\w+) -->\\s*```json\\n(.*?)\\n```",
      Pattern.DOTALL);
  private static final Map<String, Message> REQUESTS = Map.of(
      "CreateNamespace", CreateNamespaceRequest.getDefaultInstance(),
      "GetNamespace", GetNamespaceRequest.getDefaultInstance(),
      "ListNamespaces", ListNamespacesRequest.getDefaultInstance(),
      "UpdateNamespace", UpdateNamespaceRequest.getDefaultInstance(),
      "WriteEventRecordsSync", WriteEventRecordsRequest.getDefaultInstance(),
      "ReadEventRecords", ReadEventRecordsRequest.getDefaultInstance());
  private static final Map<String, Message> MESSAGES = Map.of(
      "Namespace", Namespace.getDefaultInstance(),
      "WriteEventRecordsResponse", WriteEventRecordsResponse.getDefaultInstance(),
      "ReadEventRecordsResponse", ReadEventRecordsResponse.getDefaultInstance());

  static Stream<Arguments> examples() throws IOException {
    List<Arguments> all = new ArrayList<>();
    for (String page : PAGES) {
      String text = Files.readString(ReferenceConfigTest.docs(page));
      Matcher curl = CURL.matcher(text);
      while (curl.find()) {
        all.add(Arguments.of(page + " curl " + curl.group(1), REQUESTS.get(curl.group(1)), curl.group(2)));
      }
      Matcher marked = MARKED.matcher(text);
      while (marked.find()) {
        all.add(Arguments.of(page + " example " + marked.group(1), MESSAGES.get(marked.group(1)), marked.group(2)));
      }
    }
    assertThat(all).as("examples found in the docs").hasSizeGreaterThanOrEqualTo(7);
    return all.stream();
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("examples")
  void example_is_a_valid_message(String where, Message prototype, String json) {
    assertThat(prototype).as("a known RPC or message name at " + where).isNotNull();

    Message message = ProtoJson.parse(json, prototype);

    assertThat(message).isNotEqualTo(prototype.getDefaultInstanceForType());
    NamespaceConfigMapper mapper = new NamespaceConfigMapper("varve");
    if (message instanceof CreateNamespaceRequest create) {
      assertThat(mapper.map(create.getNamespace(), create.getPersistenceConfigurationList()).settings()).isNotNull();
    }
    if (message instanceof UpdateNamespaceRequest update) {
      assertThat(mapper.map(update.getNamespace(), update.getPersistenceConfigurationList()).settings()).isNotNull();
    }
    if (message instanceof Namespace namespace) {
      assertThat(mapper.map(namespace.getNamespace(), namespace.getPersistenceConfigurationList()).settings())
          .isNotNull();
    }
  }
}
