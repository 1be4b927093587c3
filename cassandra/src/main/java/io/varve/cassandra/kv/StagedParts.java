package io.varve.cassandra.kv;

import io.varve.core.error.VarveException;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvCommit;
import io.varve.format.Crc32cCombine;
import io.varve.format.ValueCodec;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;

/**
 * Checks a commit of the chunked protocol against the parts recorded for its version. A commit that
 * does not match is refused FAILED_PRECONDITION (the request is well formed; what was staged does
 * not allow it), naming the commit's field, the key and the part: the client re-sends that part, or
 * stages the value again under a new token.
 */
final class StagedParts {

  private StagedParts() {}

  /**
   * The size of every part but the last, once {@code parts} (by index, as the log returns them) are
   * exactly the commit's: parts {@code 0..chunkCount-1}, none missing and none beyond, of one size
   * but the last, adding up to {@code valueSize} bytes of CRC32C {@code crc32c}.
   */
  static int check(KvCommit commit, List<CqlChunkLog.Part> parts) {
    int count = commit.chunkCount();
    for (int i = 0; i < parts.size(); i++) {
      CqlChunkLog.Part part = parts.get(i);
      if (part.chunk() != i) {
        throw refused(commit, "part " + i + " is missing (not staged under this token)");
      }
      if (i >= count) {
        throw refused(
            commit,
            "part "
                + i
                + " is staged under this token but outside chunk_count "
                + count
                + " (parts 0.."
                + (count - 1)
                + ")");
      }
    }
    if (parts.size() < count) {
      throw refused(commit, "part " + parts.size() + " is missing (not staged under this token)");
    }
    int partSize = parts.get(0).size();
    long rest = commit.valueSize();
    int crc = 0;
    for (int i = 0; i < count; i++) {
      CqlChunkLog.Part part = parts.get(i);
      boolean last = i == count - 1;
      if (!last && part.size() != partSize) {
        throw refused(
            commit,
            "part "
                + i
                + " holds "
                + part.size()
                + " bytes, part 0 "
                + partSize
                + " (expected: every part but the last of one size)");
      }
      if (last && part.size() != rest) {
        throw refused(
            commit,
            "the parts hold "
                + (commit.valueSize() - rest + part.size())
                + " bytes, chunked.value_size says "
                + commit.valueSize());
      }
      if (!commit.partCrc32c().isEmpty() && commit.partCrc32c().get(i) != part.crc32c()) {
        throw refused(
            commit,
            "part "
                + i
                + " is corrupt: its staged bytes have CRC32C "
                + hex(part.crc32c())
                + ", chunked.chunk_crc32c["
                + i
                + "] says "
                + hex(commit.partCrc32c().get(i))
                + "; stage it again");
      }
      crc = i == 0 ? part.crc32c() : Crc32cCombine.combine(crc, part.crc32c(), part.size());
      rest -= part.size();
      if (rest < 0 && !last) {
        throw refused(
            commit,
            "parts 0.."
                + i
                + " already hold more than chunked.value_size "
                + commit.valueSize()
                + " bytes");
      }
    }
    if (crc != commit.crc32c()) {
      throw refused(
          commit,
          "the staged parts have CRC32C "
              + hex(crc)
              + ", chunked.crc32c says "
              + hex(commit.crc32c())
              + " (a part is corrupt or of another value; send chunked.chunk_crc32c to find which)");
    }
    return partSize;
  }

  /**
   * The size a value the client compressed decompresses to, from the zstd frame header at the start
   * of its first part.
   */
  static long declaredSize(KvCommit commit, ByteBuffer first, KvChunking chunking) {
    long declared = first == null ? -1 : ValueCodec.frameContentSize(first);
    if (declared < 0) {
      throw refused(
          commit,
          "metadata.compression is zstd but part 0 does not start a zstd frame that declares its"
              + " content size");
    }
    if (declared > chunking.maxValueBytes()) {
      throw refused(
          commit,
          "the zstd frame declares "
              + declared
              + " bytes decompressed, above kv.chunks.maxValueBytes "
              + chunking.maxValueBytes());
    }
    return declared;
  }

  private static VarveException refused(KvCommit commit, String problem) {
    return VarveException.failedPrecondition(
        commit.field()
            + ".chunked: commit of key "
            + Base64.getEncoder().encodeToString(commit.key())
            + " (base64) refused: "
            + problem);
  }

  private static String hex(int crc) {
    return String.format("0x%08x", crc);
  }
}
