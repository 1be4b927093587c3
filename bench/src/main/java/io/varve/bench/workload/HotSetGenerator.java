package io.varve.bench.workload;

import java.util.concurrent.ThreadLocalRandom;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ZipfianGenerator;

/**
 * Key numbers where a hot set of {@code hotSize} keys gets a {@code share} of all accesses and the
 * rest go uniformly to the other keys. Inside the hot set the accesses are zipfian (a few keys
 * hotter still) or uniform. A hot set of one key is the single hot partition.
 *
 * <p>The hot set is the first {@code hotSize} key numbers; YCSB hashes key numbers into key names
 * (unless {@code insertorder=ordered}), so the hot keys are spread over the token ring.
 */
public final class HotSetGenerator extends NumberGenerator {
  private final long first;
  private final long count;
  private final long hotSize;
  private final double share;
  private final ZipfianGenerator zipfian;

  /**
   * @param first the first key number
   * @param count how many key numbers (first .. first + count - 1)
   * @param hotSize keys in the hot set, 1 .. count
   * @param share fraction of accesses that go to the hot set, 0 .. 1
   * @param zipfianInside zipfian (true) or uniform (false) accesses inside the hot set
   */
  public HotSetGenerator(
      long first, long count, long hotSize, double share, boolean zipfianInside) {
    if (count < 1 || hotSize < 1 || hotSize > count) {
      throw new IllegalArgumentException(
          "hot set size " + hotSize + " must be between 1 and the record count " + count);
    }
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("hot set share " + share + " must be between 0 and 1");
    }
    this.first = first;
    this.count = count;
    this.hotSize = hotSize;
    this.share = hotSize == count ? 1.0 : share;
    this.zipfian = zipfianInside && hotSize > 1 ? new ZipfianGenerator(0, hotSize - 1) : null;
  }

  @Override
  public Long nextValue() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long value;
    if (random.nextDouble() < share) {
      value = first + (zipfian != null ? zipfian.nextValue() : random.nextLong(hotSize));
    } else {
      value = first + hotSize + random.nextLong(count - hotSize);
    }
    setLastValue(value);
    return value;
  }

  /** Whether a key number is in the hot set. */
  public boolean isHot(long keyNumber) {
    return keyNumber >= first && keyNumber < first + hotSize;
  }

  @Override
  public double mean() {
    throw new UnsupportedOperationException(
        "the mean of a hot-set distribution is not defined here");
  }
}
