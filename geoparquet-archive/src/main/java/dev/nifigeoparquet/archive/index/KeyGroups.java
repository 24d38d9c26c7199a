package dev.nifigeoparquet.archive.index;

import dev.nifigeoparquet.archive.error.CorruptDataException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The records of several sources sorted by key, merged one key at a time: each key's records in source order, and in a
 * source's own order, as reading the sources one after another would give them. A shard merge so holds one key's
 * records, not the shard's. A source out of order, which this implementation never writes, is reported as damaged
 * (a {@link CorruptDataException} in an {@link UncheckedIOException}), as are the sources' I/O errors.
 */
final class KeyGroups implements Iterator<List<KeyRecord>> {

    /** A source of records sorted by key in {@link String#compareTo} order, as this implementation writes them. */
    record Source(String name, Iterator<KeyRecord> records) {}

    /** The next record of a source, and where it comes from. */
    private record Head(KeyRecord record, int source) {}

    private static final Comparator<Head> ORDER =
            Comparator.comparing((Head head) -> head.record().key()).thenComparingInt(Head::source);

    private final List<Source> sources;
    private final PriorityQueue<Head> heads = new PriorityQueue<>(ORDER);

    KeyGroups(List<Source> sources) {
        this.sources = List.copyOf(sources);
        for (int source = 0; source < this.sources.size(); source++) {
            advance(source, null);
        }
    }

    @Override
    public boolean hasNext() {
        return !heads.isEmpty();
    }

    /** Every record of the next key, in source order. */
    @Override
    public List<KeyRecord> next() {
        if (heads.isEmpty()) {
            throw new NoSuchElementException();
        }
        String key = heads.peek().record().key();
        List<KeyRecord> group = new ArrayList<>();
        while (!heads.isEmpty() && heads.peek().record().key().equals(key)) {
            Head head = heads.poll();
            group.add(head.record());
            advance(head.source(), head.record());
        }
        return group;
    }

    /** Takes the source's next record into the heads, after checking it does not sort before {@code previous}. */
    private void advance(int source, KeyRecord previous) {
        Iterator<KeyRecord> records = sources.get(source).records();
        if (!records.hasNext()) {
            return;
        }
        KeyRecord next = records.next();
        if (previous != null && next.key().compareTo(previous.key()) < 0) {
            throw new UncheckedIOException(new CorruptDataException(
                    "Key-index file " + sources.get(source).name() + " is not sorted by key: " + next.key()
                            + " follows " + previous.key()));
        }
        heads.add(new Head(next, source));
    }
}
