package io.varve.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.protobuf.ProtoFileDescriptorSupplier;
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
import org.junit.jupiter.api.Test;

/**
 * The docs list every service and RPC the server serves, and the permission each needs, as the
 * descriptors and {@link ApiCalls} say: docs/api.md's tables and api/README.md.
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
