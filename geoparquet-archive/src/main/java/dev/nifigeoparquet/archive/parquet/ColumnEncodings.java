package dev.nifigeoparquet.archive.parquet;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Per-file encoding choices that are not archive settings: they change how a file is encoded and what its footer
 * describes, never what it holds, so files written with different choices are interchangeable.
 *
 * @param dictionary              dictionary encoding for non-geometry columns (parquet-java's default, falling back
 *                                to plain encoding per page when a dictionary grows too large). Geometry columns never
 *                                get a dictionary: every WKB value is distinct. Off suits small files of unique values,
 *                                such as per-cell output read once, where no dictionary ever falls back and each value
 *                                is hashed for nothing.
 * @param bloomFilterColumns      columns that get a Parquet bloom filter in every row group, so a lookup can skip row
 *                                groups without reading their pages
 * @param bloomFilterValues       the distinct values a bloom filter is sized for: a row group's rows when the writer
 *                                knows no better ({@code 0}), fewer for a file known to be smaller (a filter sized for
 *                                a full row group would outweigh a small file's data)
 * @param withoutStatistics       columns whose min/max statistics are left out: every row group's statistics are in
 *                                the footer, which every reader parses before it reads anything
 * @param sizeStatistics          Parquet's size statistics (per-chunk byte counts and level histograms) in the footer
 * @param withoutDictionary       columns written without a dictionary even when {@code dictionary} is on: those whose
 *                                values are known to be nearly all distinct (a rewritten file's columns whose dictionary
 *                                fell back to plain encoding when the file was first written), for which parquet-java
 *                                would otherwise hash every value into a dictionary only to drop it at the first page
 * @param bloomFilterFpp          the false-positive probability bloom filters are sized for; {@code 0} for
 *                                parquet-java's default (1%)
 * @param pageRowCountLimit       the most rows a data page holds; {@code 0} for parquet-java's default (20,000). Fewer
 *                                rows per page let a reader that selects pages by the page index read less for a
 *                                few rows
 * @param pageSize                the bytes at which a column's data page is cut; {@code 0} for parquet-java's default
 *                                (1 MiB). A file small enough to end each column in one page (a routed cell's) has
 *                                every page compressed when it finishes; smaller pages are compressed while it is
 *                                still being written
 */
public record ColumnEncodings(
        boolean dictionary,
        Set<String> bloomFilterColumns,
        long bloomFilterValues,
        double bloomFilterFpp,
        Set<String> withoutStatistics,
        boolean sizeStatistics,
        Set<String> withoutDictionary,
        int pageRowCountLimit,
        int pageSize) {

    public ColumnEncodings {
        bloomFilterColumns = Set.copyOf(bloomFilterColumns);
        withoutStatistics = Set.copyOf(withoutStatistics);
        withoutDictionary = Set.copyOf(withoutDictionary);
        if (bloomFilterValues < 0) {
            throw new IllegalArgumentException("Bloom filter values must not be negative, was " + bloomFilterValues);
        }
        if (bloomFilterFpp < 0 || bloomFilterFpp >= 1) {
            throw new IllegalArgumentException("A false-positive probability lies in [0, 1), was " + bloomFilterFpp);
        }
        if (pageRowCountLimit < 0) {
            throw new IllegalArgumentException("A page row count limit must not be negative, was " + pageRowCountLimit);
        }
        if (pageSize < 0) {
            throw new IllegalArgumentException("A page size must not be negative, was " + pageSize);
        }
    }

    /** parquet-java's defaults: dictionaries where they pay, no bloom filters, all statistics. */
    public static ColumnEncodings defaults() {
        return new ColumnEncodings(true, Set.of(), 0, 0, Set.of(), true, Set.of(), 0, 0);
    }

    public ColumnEncodings withDictionary(boolean enabled) {
        return with(copy -> copy.dictionary = enabled);
    }

    public ColumnEncodings withBloomFilterOn(String column) {
        return with(copy -> copy.bloomFilterColumns.add(column));
    }

    public ColumnEncodings withBloomFilterValues(long values) {
        return with(copy -> copy.bloomFilterValues = values);
    }

    public ColumnEncodings withoutStatisticsOn(String column) {
        return with(copy -> copy.withoutStatistics.add(column));
    }

    public ColumnEncodings withSizeStatistics(boolean enabled) {
        return with(copy -> copy.sizeStatistics = enabled);
    }

    public ColumnEncodings withBloomFilterFpp(double fpp) {
        return with(copy -> copy.bloomFilterFpp = fpp);
    }

    public ColumnEncodings withPageRowCountLimit(int rows) {
        return with(copy -> copy.pageRowCountLimit = rows);
    }

    public ColumnEncodings withPageSize(int bytes) {
        return with(copy -> copy.pageSize = bytes);
    }

    /**
     * For rewriting a file: without a dictionary for every column whose chunks in {@code footer}'s file hold no
     * dictionary-encoded page, as when the writer fell back to plain encoding because the values were nearly all
     * distinct. A rewrite of the file would otherwise build the same dictionary only to drop it again. Columns the
     * footer says nothing about keep the current choice.
     */
    public ColumnEncodings likeFile(ParquetFooter footer) {
        Set<String> plain = new HashSet<>();
        Set<String> dictionaryEncoded = new HashSet<>();
        for (BlockMetaData rowGroup : footer.rowGroups()) {
            for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                String column = chunk.getPath().toDotString();
                EncodingStats stats = chunk.getEncodingStats();
                boolean dictionaryPages = stats != null
                        ? stats.hasDictionaryEncodedPages()
                        : chunk.getEncodings().stream().anyMatch(Encoding::usesDictionary);
                (dictionaryPages ? dictionaryEncoded : plain).add(column);
            }
        }
        plain.removeAll(dictionaryEncoded);
        return plain.isEmpty() ? this : withoutDictionaryOn(plain);
    }

    /** With these columns written without a dictionary, in addition to those already. */
    public ColumnEncodings withoutDictionaryOn(Collection<String> columns) {
        return with(copy -> copy.withoutDictionary.addAll(columns));
    }

    /** A copy with {@code change} applied: each wither names only the component it changes. */
    private ColumnEncodings with(Consumer<Components> change) {
        Components copy = new Components(this);
        change.accept(copy);
        return new ColumnEncodings(
                copy.dictionary,
                copy.bloomFilterColumns,
                copy.bloomFilterValues,
                copy.bloomFilterFpp,
                copy.withoutStatistics,
                copy.sizeStatistics,
                copy.withoutDictionary,
                copy.pageRowCountLimit,
                copy.pageSize);
    }

    /** The components of a copy being made, the sets among them mutable. */
    private static final class Components {
        boolean dictionary;
        final Set<String> bloomFilterColumns;
        long bloomFilterValues;
        double bloomFilterFpp;
        final Set<String> withoutStatistics;
        boolean sizeStatistics;
        final Set<String> withoutDictionary;
        int pageRowCountLimit;
        int pageSize;

        Components(ColumnEncodings from) {
            dictionary = from.dictionary;
            bloomFilterColumns = new HashSet<>(from.bloomFilterColumns);
            bloomFilterValues = from.bloomFilterValues;
            bloomFilterFpp = from.bloomFilterFpp;
            withoutStatistics = new HashSet<>(from.withoutStatistics);
            sizeStatistics = from.sizeStatistics;
            withoutDictionary = new HashSet<>(from.withoutDictionary);
            pageRowCountLimit = from.pageRowCountLimit;
            pageSize = from.pageSize;
        }
    }
}
