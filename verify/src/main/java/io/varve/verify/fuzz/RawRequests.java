package io.varve.verify.fuzz;

import io.varve.verify.fuzz.FuzzCase.Kind;
import io.varve.verify.fuzz.FuzzCase.Transport;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * The requests of a fuzz run that are not well-formed API requests: bodies that are no JSON or no
 * protobuf message, and valid bodies sent with odd paths, methods, content types and headers.
 */
final class RawRequests {

  private final FuzzWorld world;
  private final ApiGrammar grammar;
  private final boolean grpc;
  private final Supplier<Arbitrary<String>> rpcs;

  /**
   * @param rpcs the RPCs a request is drawn for, with the plan's weights
   */
  RawRequests(FuzzWorld world, ApiGrammar grammar, boolean grpc, Supplier<Arbitrary<String>> rpcs) {
    this.world = world;
    this.grammar = grammar;
    this.grpc = grpc;
    this.rpcs = rpcs;
  }

  /**
   * Bodies that are not JSON or not a protobuf message: random bytes, cut JSON, odd top-level
   * values.
   */
  Arbitrary<FuzzCase> garbage() {
    Arbitrary<byte[]> randomBytes = ApiGrammar.randomBytes(0, 2000);
    Arbitrary<FuzzCase> jsonGarbage =
        Combinators.combine(
                rpcs.get(),
                grammar.request("WriteEventRecordsSync"),
                Arbitraries.integers().between(0, 20),
                randomBytes,
                Arbitraries.integers().between(0, 100_000))
            .as(
                (rpc, valid, kind, bytes, cut) -> {
                  String text = FuzzPlan.print(valid, false);
                  byte[] body;
                  String what;
                  switch (kind) {
                    case 0, 1, 2 -> {
                      body = bytes;
                      what = "random bytes";
                    }
                    case 3, 4, 5 -> {
                      int at = cut % Math.max(1, text.length());
                      body = text.substring(0, at).getBytes(StandardCharsets.UTF_8);
                      what = "JSON cut at " + at + " of " + text.length();
                    }
                    case 6 -> {
                      body = "[".repeat(100_000).getBytes(StandardCharsets.UTF_8);
                      what = "100000 [";
                    }
                    case 7 -> {
                      body = "{\"a\":".repeat(50_000).getBytes(StandardCharsets.UTF_8);
                      what = "objects nested 50000 deep";
                    }
                    case 8 -> {
                      body =
                          ("{\"namespace\":\"" + "x".repeat(20 << 20) + "\"}")
                              .getBytes(StandardCharsets.UTF_8);
                      what = "20 MiB string field";
                    }
                    case 9 -> {
                      body = (text + "}}garbage").getBytes(StandardCharsets.UTF_8);
                      what = "trailing bytes after the JSON";
                    }
                    case 10 -> {
                      body = new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'};
                      what = "UTF-8 byte order mark";
                    }
                    case 11 -> {
                      body =
                          ("{\"namespace\":\"" + world.dataNamespaces().get(0) + "\u00ff\u00fe\"}")
                              .getBytes(StandardCharsets.ISO_8859_1);
                      what = "invalid UTF-8 in a string";
                    }
                    case 12 -> {
                      body = new byte[0];
                      what = "empty body";
                    }
                    case 13 -> {
                      body = "null".getBytes(StandardCharsets.UTF_8);
                      what = "null body";
                    }
                    case 14 -> {
                      body = "[{}]".getBytes(StandardCharsets.UTF_8);
                      what = "array body";
                    }
                    case 15 -> {
                      body =
                          ("/* c */" + text.replaceFirst("\\}$", ",}"))
                              .getBytes(StandardCharsets.UTF_8);
                      what = "comment and trailing comma";
                    }
                    case 16 -> {
                      body = text.replace("\"", "'").getBytes(StandardCharsets.UTF_8);
                      what = "single quotes";
                    }
                    case 17 -> {
                      body =
                          ("{\"namespace\":\"" + "\\u0000".repeat(1000) + "\"}")
                              .getBytes(StandardCharsets.UTF_8);
                      what = "escaped NULs";
                    }
                    default -> {
                      body =
                          ("\"" + "\\".repeat(cut % 5000) + "\"").getBytes(StandardCharsets.UTF_8);
                      what = "backslashes";
                    }
                  }
                  return FuzzPlan.jsonCase(
                      rpc,
                      Kind.GARBAGE,
                      what,
                      body,
                      Map.of("Content-Type", "application/json"),
                      "/v1/" + rpc,
                      "POST",
                      null,
                      null);
                });
    if (!grpc) {
      return jsonGarbage;
    }
    Arbitrary<FuzzCase> grpcGarbage =
        Combinators.combine(rpcs.get(), randomBytes)
            .as(
                (rpc, bytes) ->
                    new FuzzCase(
                        rpc,
                        Kind.GARBAGE,
                        "random bytes",
                        Transport.GRPC,
                        null,
                        null,
                        Map.of(),
                        bytes,
                        null,
                        null));
    return Arbitraries.oneOf(jsonGarbage, grpcGarbage);
  }

  /** Valid bodies sent with odd paths, methods, content types and headers. */
  Arbitrary<FuzzCase> headers() {
    Arbitrary<String[]> variants =
        Arbitraries.of(
            new String[] {"POST", "/v1/../health", "application/json", ""},
            new String[] {"POST", "/v1/%2e%2e/health", "application/json", ""},
            new String[] {"POST", "/v1/..%2fhealth", "application/json", ""},
            new String[] {"POST", "/v1/NoSuchRpc", "application/json", ""},
            new String[] {"POST", "/v1/", "application/json", ""},
            new String[] {"POST", "/v1/{rpc}/extra", "application/json", ""},
            new String[] {"POST", "/v1/{rpc}?a=b&a=c", "application/json", ""},
            new String[] {"POST", "//v1//{rpc}", "application/json", ""},
            new String[] {"POST", "/V1/{rpc}", "application/json", ""},
            new String[] {"GET", "/v1/{rpc}", "", ""},
            new String[] {"PUT", "/v1/{rpc}", "application/json", ""},
            new String[] {"DELETE", "/v1/{rpc}", "", ""},
            new String[] {"POST", "/v1/{rpc}", "", ""},
            new String[] {"POST", "/v1/{rpc}", "text/plain", ""},
            new String[] {"POST", "/v1/{rpc}", "application/json; charset=utf-16", ""},
            new String[] {"POST", "/v1/{rpc}", "application/x-protobuf", ""},
            new String[] {"POST", "/v1/{rpc}", "application/grpc", ""},
            new String[] {"POST", "/v1/{rpc}", "application/json;;;", ""},
            new String[] {"POST", "/v1/{rpc}", "*/*", ""},
            new String[] {"POST", "/v1/{rpc}", "application/json", "Content-Encoding: gzip"},
            new String[] {"POST", "/v1/{rpc}", "application/json", "Content-Encoding: br"},
            new String[] {
              "POST", "/v1/{rpc}", "application/json", "Authorization: Bearer \u00ff\u00fe"
            },
            new String[] {
              "POST", "/v1/{rpc}", "application/json", "Authorization: Basic Zm9vOmJhcg=="
            },
            new String[] {"POST", "/v1/{rpc}", "application/json", "Accept: application/xml"},
            new String[] {"POST", "/v1/{rpc}", "application/json", "X-Huge: " + "h".repeat(60_000)},
            new String[] {"POST", "/v1/{rpc}", "application/json", "Expect: 100-continue"},
            new String[] {"POST", "/v1/{rpc}", "application/json", "Grpc-Timeout: 1n"},
            new String[] {"POST", "/v1/{rpc}", "application/json", "Transfer-Encoding: chunked"});
    return Combinators.combine(
            rpcs.get().flatMap(rpc -> grammar.request(rpc).map(m -> Map.entry(rpc, m))), variants)
        .as(
            (request, v) -> {
              String rpc = request.getKey();
              Map<String, String> headers = new LinkedHashMap<>();
              if (!v[2].isEmpty()) {
                headers.put("Content-Type", v[2]);
              }
              if (!v[3].isEmpty()) {
                int colon = v[3].indexOf(':');
                headers.put(v[3].substring(0, colon), v[3].substring(colon + 2));
              }
              byte[] body =
                  v[0].equals("GET") || v[0].equals("DELETE")
                      ? new byte[0]
                      : FuzzPlan.print(request.getValue(), false).getBytes(StandardCharsets.UTF_8);
              String path = v[1].replace("{rpc}", rpc);
              // the body is the valid request unchanged: if the server takes it, it took that
              // request
              return FuzzPlan.jsonCase(
                  rpc,
                  Kind.HEADERS,
                  v[0] + " " + path + " " + headers.keySet(),
                  body,
                  headers,
                  path,
                  v[0],
                  body.length == 0 ? null : request.getValue(),
                  request.getValue());
            });
  }
}
