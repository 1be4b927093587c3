package io.varve.client;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The pages of one paged read (ReadEventRecords, SearchEventRecords, GetItems, ScanItems): each
 * iteration sends the request from its first page and follows {@code next_page_token} until the
 * server sets none. Pages are fetched one at a time, when the iteration asks for them (the calling
 * thread waits; each page is one call, hedged and retried as any other). A failed page throws the
 * call's {@link io.grpc.StatusRuntimeException} from {@code hasNext}/{@code next}.
 *
 * <p>An iteration is used by one thread at a time; the object can be iterated again (a new read).
 *
 * @param <T> the item type
 */
public final class Pages<T> implements Iterable<Page<T>> {

  private final Function<String, CompletionStage<Page<T>>> fetch;
  private final Paging paging;

  /**
   * @param fetch sends the request with a page token (empty for the first page)
   * @param paging what to do with partial pages
   */
  Pages(Function<String, CompletionStage<Page<T>>> fetch, Paging paging) {
    this.fetch = fetch;
    this.paging = paging;
  }

  @Override
  public Iterator<Page<T>> iterator() {
    return new Iterator<>() {
      private String token = "";
      private boolean over;

      @Override
      public boolean hasNext() {
        return !over;
      }

      @Override
      public Page<T> next() {
        if (over) {
          throw new NoSuchElementException();
        }
        Page<T> page = VarveClient.join(fetch.apply(token));
        if (paging == Paging.COMPLETE_PAGES && page.partial() && page.hasNext()) {
          List<T> items = new ArrayList<>(page.items());
          while (page.partial() && page.hasNext()) {
            page = VarveClient.join(fetch.apply(page.nextPageToken()));
            items.addAll(page.items());
          }
          page = new Page<>(items, page.nextPageToken(), false);
        }
        token = page.nextPageToken();
        over = !page.hasNext();
        return page;
      }
    };
  }

  /** Every item of every page, in order, fetched as the stream is consumed. */
  public Stream<T> items() {
    Iterator<Page<T>> pages = iterator();
    Iterator<T> items =
        new Iterator<>() {
          private Iterator<T> current = List.<T>of().iterator();

          @Override
          public boolean hasNext() {
            while (!current.hasNext() && pages.hasNext()) {
              current = pages.next().items().iterator();
            }
            return current.hasNext();
          }

          @Override
          public T next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return current.next();
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(items, Spliterator.ORDERED), false);
  }
}
