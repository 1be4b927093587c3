package io.varve.reshaper.badrows;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bad-rows file is a CQL script that reads back as the rows that were written to it. */
class BadRowsFileTest {
  @TempDir Path dir;

  @Test
  void every_appended_row_reads_back_with_its_error() throws Exception {
    Path path = dir.resolve("sub").resolve("job.bad-rows");
    List<BadRow> first =
        List.of(
            new BadRow("INSERT INTO ks.t (k, v) VALUES (1, 'a;\n-- not a comment;\nb')", "E1: x"),
            new BadRow("INSERT INTO ks.\"T;\" (k) VALUES (2)", "E2: y"));
    List<BadRow> second =
        List.of(
            new BadRow(
                "BEGIN UNLOGGED BATCH INSERT INTO ks.t (k, a)"
                    + " VALUES (3, 'it''s') USING TIMESTAMP 1 AND TTL 0; INSERT INTO ks.t (k, b) VALUES"
                    + " (3, 'z') USING TIMESTAMP 2 AND TTL 0; APPLY BATCH",
                "E3: z"));
    BadRowsFile run = new BadRowsFile(path, "run one");
    run.append(first);
    run.append(second);
    new BadRowsFile(path, "run two").append(first);

    assertThat(BadRowsFile.read(path))
        .containsExactly(first.get(0), first.get(1), second.get(0), first.get(0), first.get(1));
    String text = Files.readString(path);
    assertThat(text)
        .startsWith("-- run one\n-- E1: x\nINSERT INTO ks.t (k, v) VALUES (1, 'a;\n")
        .contains("\n-- run two\n");
    assertThat(text.lines().filter(l -> l.startsWith("-- run "))).hasSize(2);
  }

  @Test
  void an_error_of_several_lines_is_kept_on_one_comment_line() {
    BadRow row =
        BadRow.of(
            "INSERT INTO ks.t (k) VALUES (1)",
            new IllegalStateException("first\n  second\r\nthird"));
    assertThat(row.error()).isEqualTo("IllegalStateException: first second third");
  }

  @Test
  void replacing_with_no_rows_removes_the_file() throws Exception {
    Path path = dir.resolve("job.bad-rows");
    BadRowsFile file = new BadRowsFile(path, "replay");
    file.append(List.of(new BadRow("INSERT INTO ks.t (k) VALUES (1)", "E")));
    file.replaceWith(List.of(new BadRow("INSERT INTO ks.t (k) VALUES (2)", "E")));
    assertThat(BadRowsFile.read(path))
        .extracting(BadRow::statement)
        .containsExactly("INSERT INTO ks.t (k) VALUES (2)");
    file.replaceWith(List.of());
    assertThat(path).doesNotExist();
  }
}
