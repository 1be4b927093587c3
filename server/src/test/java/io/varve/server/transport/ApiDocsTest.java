package io.varve.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.protobuf.ProtoFileDescriptorSupplier;
import io.varve.server.DocPages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs list every service and RPC the server serves, and the permission each needs, as the
 * descriptors and {@link ApiCalls} say: docs/api.md's tables and api/README.md. Every RPC the
 * protos declare is served (so those tables and the curl examples must show it), and every {@code
 * /v1/<Rpc>} route the docs name is one the server serves.
 */
class ApiDocsTest {

  /** Tests run in the module's directory, beside the repository's docs/ and api/. */
  private static final Path ROOT = Path.of("..");

  private static final Pattern CODE = Pattern.compile("`([^`]*)`");

  @Test
  void api_md_lists_every_service_and_rpc_with_its_route() throws IOException {
    List<String> rows = new ArrayList<>();
    String service = "";
    for (List<String> row :
        table(Files.readString(ROOT.resolve("docs/api.md")), "| Service | RPC | HTTP | Does |")) {
      service = row.get(0).isEmpty() ? service : code(row.get(0));
      rows.add(service + "/" + code(row.get(1)) + " " + code(row.get(2)));
    }

    assertThat(rows)
        .containsExactlyElementsOf(
            methods().stream()
                .map(m -> m.getFullMethodName() + " POST /v1/" + m.getBareMethodName())
                .toList());
  }

  @Test
  void api_md_gives_the_permission_each_rpc_needs() throws IOException {
    Map<String, String> documented = new LinkedHashMap<>();
    for (List<String> row :
        table(
            Files.readString(ROOT.resolve("docs/api.md")),
            "| RPC | Needs, on the request's `namespace` |")) {
      Arrays.stream(row.get(0).split(","))
          .map(ApiDocsTest::code)
          .forEach(rpc -> documented.put(rpc, row.get(1)));
    }

    assertThat(documented.keySet())
        .containsExactlyInAnyOrderElementsOf(
            // a shared RPC (the Handshake) has one name and, as ApiCalls checks, one permission
            ApiCalls.ALL.stream()
                .map(call -> call.method().getBareMethodName())
                .distinct()
                .toList());
    for (ApiCall<?, ?> call : ApiCalls.ALL) {
      String needs = documented.get(call.method().getBareMethodName());
      String permission = "`" + call.permission().configName() + "`";
      if (call.scope() == ApiCall.Scope.REQUEST_NAMESPACE) {
        assertThat(needs).as(call.method().getBareMethodName()).isEqualTo(permission);
      } else {
        assertThat(needs)
            .as(call.method().getBareMethodName())
            .isEqualTo("nothing; it answers only the namespaces the token may " + permission);
      }
    }
  }

  @Test
  void api_readme_lists_every_service_with_its_proto_file_and_rpcs() throws IOException {
    Matcher line =
        Pattern.compile("- `(\\w+\\.proto)` — service `([\\w.]+)`: ([\\w, ]+)\\.")
            .matcher(Files.readString(ROOT.resolve("api/README.md")));
    List<String> listed = new ArrayList<>();
    while (line.find()) {
      listed.add(line.group(1) + " " + line.group(2) + ": " + line.group(3));
    }

    assertThat(listed)
        .containsExactlyElementsOf(
            Transports.SERVICES.stream()
                .map(
                    service ->
                        file(service)
                            + " "
                            + service.getName()
                            + ": "
                            + String.join(
                                ", ",
                                service.getMethods().stream()
                                    .map(MethodDescriptor::getBareMethodName)
                                    .toList()))
                .toList());
  }

  @Test
  void every_rpc_the_protos_declare_is_served_so_the_docs_tests_ask_for_it() throws IOException {
    Pattern declaration =
        Pattern.compile(
            "^\\s*(?:package\\s+([\\w.]+)\\s*;|service\\s+(\\w+)|rpc\\s+(\\w+)\\s*\\()");
    List<String> declared = new ArrayList<>();
    Map<String, String> where = new LinkedHashMap<>();
    Path protos = ROOT.resolve("api/src/main/proto");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(protos)) {
      files = walk.filter(p -> p.toString().endsWith(".proto")).sorted().toList();
    }
    for (Path file : files) {
      String pkg = "";
      String service = "";
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        Matcher m = declaration.matcher(lines.get(i));
        if (!m.find()) {
          continue;
        }
        if (m.group(1) != null) {
          pkg = m.group(1);
        } else if (m.group(2) != null) {
          service = m.group(2);
        } else {
          String rpc = pkg + "." + service + "/" + m.group(3);
          declared.add(rpc);
          where.put(rpc, ROOT.relativize(file) + ":" + (i + 1));
        }
      }
    }
    List<String> served = methods().stream().map(MethodDescriptor::getFullMethodName).toList();

    assertThat(declared).as("RPCs declared in " + protos).isNotEmpty();
    assertThat(
            declared.stream()
                .filter(rpc -> !served.contains(rpc))
                .map(rpc -> where.get(rpc) + ": " + rpc)
                .toList())
        .as(
            "RPCs the protos declare but the server does not serve (Transports.SERVICES), so that"
                + " no test asks for their rows in docs/api.md and their curl examples")
        .isEmpty();
    assertThat(served).as("served RPCs no proto declares").isSubsetOf(declared);
  }

  @Test
  void every_route_the_docs_name_is_an_rpc_the_server_serves() {
    Pattern route = Pattern.compile("/v1/([A-Z]\\w*)");
    List<String> names = methods().stream().map(MethodDescriptor::getBareMethodName).toList();
    List<String> unknown = new ArrayList<>();
    for (DocPages.Line line : DocPages.lines()) {
      Matcher m = route.matcher(line.text());
      while (m.find()) {
        if (!names.contains(m.group(1))) {
          unknown.add(line.where() + ": /v1/" + m.group(1));
        }
      }
    }

    assertThat(unknown).as("routes that name no RPC of " + names).isEmpty();
  }

  @Test
  void no_sentence_of_the_docs_says_a_served_rpc_is_not_served() {
    Pattern notServed =
        Pattern.compile(
            "\\b(?:(?:does|do|is|are) not (?:yet )?(?:serve|served)|not (?:yet )?served|not serve[sd]? yet)\\b",
            Pattern.CASE_INSENSITIVE);
    List<String> names = methods().stream().map(MethodDescriptor::getBareMethodName).toList();
    List<String> wrong = new ArrayList<>();
    for (DocPages.Sentence sentence : DocPages.sentences()) {
      if (!notServed.matcher(sentence.text()).find()) {
        continue;
      }
      Matcher rpc = CODE.matcher(sentence.text());
      while (rpc.find()) {
        if (names.contains(rpc.group(1))) {
          wrong.add(sentence.where() + ": `" + rpc.group(1) + "` in: " + sentence.text());
        }
      }
    }

    assertThat(wrong).as("sentences saying a served RPC is not served").isEmpty();
  }

  private static List<MethodDescriptor<?, ?>> methods() {
    return Transports.SERVICES.stream()
        .<MethodDescriptor<?, ?>>flatMap(s -> s.getMethods().stream())
        .toList();
  }

  /** The proto file that declares the service, without its directory. */
  private static String file(ServiceDescriptor service) {
    String name =
        ((ProtoFileDescriptorSupplier) service.getSchemaDescriptor()).getFileDescriptor().getName();
    return name.substring(name.lastIndexOf('/') + 1);
  }

  /** The cells of the rows of the Markdown table under {@code header}. */
  private static List<List<String>> table(String page, String header) {
    int start = page.indexOf(header + "\n");
    assertThat(start).as("a table with the header " + header).isNotNegative();
    List<List<String>> rows = new ArrayList<>();
    for (String line :
        page.substring(start).lines().skip(2).takeWhile(l -> l.startsWith("|")).toList()) {
      rows.add(
          Arrays.stream(line.substring(1, line.length() - 1).split("\\|", -1))
              .map(String::strip)
              .toList());
    }
    return rows;
  }

  private static String code(String cell) {
    Matcher code = CODE.matcher(cell);
    assertThat(code.find()).as("a `name` in " + cell).isTrue();
    return code.group(1);
  }
}
