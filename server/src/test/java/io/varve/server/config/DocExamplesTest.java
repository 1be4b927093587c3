package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Namespace;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.server.DocPages;
import io.varve.server.json.ProtoJson;
import io.varve.server.transport.Transports;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every RPC the server serves has a {@code curl} example in the docs, and the examples are valid:
 * each {@code curl} example's body parses as its RPC's request (and a namespace configuration
 * maps), and every JSON block marked {@code <!-- example: MessageName -->} parses as that request
 * or response message. The RPCs and messages are those of the served services' descriptors.
 */
class DocExamplesTest {

  private static final List<String> PAGES =
      List.of("api.md", "namespace-configuration.md", "search.md", "limits.md", "key-value.md");

  private static final Pattern MARKED =
      Pattern.compile("<!-- example: (\\w+) -->\\s*```json\\n(.*?)\\n```", Pattern.DOTALL);

  private static List<MethodDescriptor<?, ?>> methods() {
    return Transports.SERVICES.stream()
        .<MethodDescriptor<?, ?>>flatMap(s -> s.getMethods().stream())
        .toList();
  }

  private static Message prototype(MethodDescriptor.Marshaller<?> marshaller) {
    return (Message) ((MethodDescriptor.PrototypeMarshaller<?>) marshaller).getMessagePrototype();
  }

  /** The {@code curl} examples posting to {@code /v1/<Rpc>}, page by page. */
  private static List<DocPages.Curl> curls() {
    return PAGES.stream().flatMap(page -> DocPages.curls(page).stream()).toList();
  }

  static Stream<Arguments> examples() throws IOException {
    Map<String, Message> requests = new HashMap<>();
    Map<String, Message> messages = new HashMap<>();
    for (MethodDescriptor<?, ?> method : methods()) {
      requests.put(method.getBareMethodName(), prototype(method.getRequestMarshaller()));
      for (Message message :
          List.of(
              prototype(method.getRequestMarshaller()),
              prototype(method.getResponseMarshaller()))) {
        messages.put(message.getDescriptorForType().getName(), message);
      }
    }
    List<Arguments> all = new ArrayList<>();
    for (DocPages.Curl curl : curls()) {
      all.add(Arguments.of(curl.where(), requests.get(curl.rpc()), curl.body()));
    }
    for (String page : PAGES) {
      Matcher marked = MARKED.matcher(Files.readString(ReferenceConfigTest.docs(page)));
      while (marked.find()) {
        all.add(
            Arguments.of(
                page + " example " + marked.group(1),
                messages.get(marked.group(1)),
                marked.group(2)));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("examples")
  void example_is_a_valid_message(String where, Message prototype, String json) {
    assertThat(prototype)
        .as("a served RPC, or a request or response message, at " + where)
        .isNotNull();

    Message message = ProtoJson.parse(json, prototype);

    if (!prototype.getDescriptorForType().getFields().isEmpty()) {
      assertThat(message).isNotEqualTo(prototype.getDefaultInstanceForType());
    }
    NamespaceConfigMapper mapper = new NamespaceConfigMapper("varve");
    if (message instanceof CreateNamespaceRequest create) {
      assertThat(
              mapper
                  .map(
                      create.getNamespace(),
                      create.getService(),
                      create.getPersistenceConfigurationList())
                  .keyspace())
          .isNotEmpty();
    }
    if (message instanceof UpdateNamespaceRequest update) {
      assertThat(
              mapper
                  .map(
                      update.getNamespace(),
                      update.getService(),
                      update.getPersistenceConfigurationList())
                  .keyspace())
          .isNotEmpty();
    }
    if (message instanceof Namespace namespace) {
      assertThat(
              mapper
                  .map(
                      namespace.getNamespace(),
                      namespace.getService(),
                      namespace.getPersistenceConfigurationList())
                  .keyspace())
          .isNotEmpty();
    }
  }

  static Stream<String> rpcs() {
    return methods().stream().map(MethodDescriptor::getBareMethodName);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rpcs")
  void every_rpc_has_a_curl_example(String rpc) throws IOException {
    assertThat(curls())
        .as("curl examples in docs/ " + PAGES)
        .extracting(DocPages.Curl::rpc)
        .contains(rpc);
  }
}
