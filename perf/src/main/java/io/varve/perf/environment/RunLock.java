package io.varve.perf.environment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * One benchmark run at a time on a machine: a lock on {@code .varve/perf.lock} under the Varve
 * home, held from the start of a run to its end (the operating system lets go of it when the
 * process dies, however it dies). Two runs at once would measure each other on the same cores, and
 * runs on the same Cassandra drop each other's keyspaces. The file names the holder, for the
 * refusal of the next one. {@link Environment#open} takes it for every benchmark run in one.
 */
public final class RunLock implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private RunLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock for the run {@code name}, or fails at once naming the run that holds it.
   *
   * @throws IllegalStateException when another run holds it
   */
  public static RunLock take(Path home, String name) {
    Path file = home.resolve(".varve").resolve("perf.lock");
    try {
      Files.createDirectories(file.getParent());
      FileChannel channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by a run of this same JVM
      }
      if (lock == null) {
        String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
        channel.close();
        throw new IllegalStateException(
            name
                + " not started: another benchmark run holds "
                + file
                + " ("
                + (holder.isEmpty() ? "starting" : holder)
                + "). Runs at once measure each other and drop each other's keyspaces; wait"
                + " for it to end, or stop it.");
      }
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              (name + ", pid " + ProcessHandle.current().pid() + ", since " + Instant.now())
                  .getBytes(StandardCharsets.UTF_8)),
          0);
      return new RunLock(channel, lock);
    } catch (IOException e) {
      throw new UncheckedIOException("could not take the benchmark lock " + file, e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      channel.truncate(0);
      lock.release();
    } finally {
      channel.close();
    }
  }
}
