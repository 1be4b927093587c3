package io.varve.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/exit-status.md's table is the enum: every status, in order, with its code, name and summary.
 */
class ExitStatusDocsTest {

  @Test
  void the_docs_table_lists_every_status_as_the_enum_says() throws IOException {
    List<String> expected =
        Arrays.stream(ExitStatus.values())
            .map(s -> "| " + s.code() + " | `" + s.name() + "` | " + s.summary() + " |")
            .toList();
    assertThat(table(Files.readAllLines(page()), "## The statuses"))
        .containsExactlyElementsOf(expected);
  }

  @Test
  void codes_are_distinct_and_fit_a_process_exit_status() {
    assertThat(Arrays.stream(ExitStatus.values()).map(ExitStatus::code))
        .doesNotHaveDuplicates()
        .allSatisfy(code -> assertThat(code).isBetween(0, 255));
  }

  /** The rows of the first table after {@code heading}, without its header and separator. */
  private static List<String> table(List<String> lines, String heading) {
    List<String> rows = new ArrayList<>();
    boolean inSection = false;
    for (String line : lines) {
      if (line.startsWith("## ")) {
        inSection = line.equals(heading);
      } else if (inSection && line.startsWith("|")) {
        rows.add(line);
      } else if (inSection && !rows.isEmpty()) {
        break;
      }
    }
    return rows.size() < 2 ? rows : rows.subList(2, rows.size());
  }

  /** docs/exit-status.md, found upwards from the module's directory where tests run. */
  private static Path page() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("docs").resolve("exit-status.md");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("docs/exit-status.md not found above " + Path.of("").toAbsolutePath());
  }
}
