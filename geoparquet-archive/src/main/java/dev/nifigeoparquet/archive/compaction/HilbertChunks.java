package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.LiveFiles;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFileException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.shape.fractal.HilbertCode;

/**
 * Which output row group each row of a compaction group belongs to when the rows are ordered along a Hilbert curve:
 * rows are ranked by the Hilbert index of their envelope's centre on a 2<sup>16</sup> grid over the group's extent,
 * and consecutive ranks fill row groups of the archive's row count.
 *
 * <p>Only the assignment to row groups is kept (a few bytes per row), not the rows: a row group's min/max statistics,
 * which readers prune by, do not depend on the order of the rows inside it, so the compactor writes the chunks one
 * after another, each in input order, with no row held in memory. Rows without a geometry rank last.
 */
final class HilbertChunks {

    private static final int LEVEL = HilbertCode.MAX_LEVEL;
    private static final long NO_GEOMETRY = 1L << 32;
    private static final long ORDINAL_MASK = (1L << 31) - 1;

    /** The chunk of each row, indexed by the row's position across the group's files in order. */
    private final int[] chunkOfRow;

    private final long[] firstRowOfFile;
    private final List<BitSet> chunksOfFile;
    private final int chunkCount;

    private HilbertChunks(int[] chunkOfRow, long[] firstRowOfFile, List<BitSet> chunksOfFile, int chunkCount) {
        this.chunkOfRow = chunkOfRow;
        this.firstRowOfFile = firstRowOfFile;
        this.chunksOfFile = chunksOfFile;
        this.chunkCount = chunkCount;
    }

    /** Reads the geometry column of {@code files} (nothing else) and assigns every row its chunk. */
    static HilbertChunks of(
            GeoParquetArchive archive, PartitionCommit state, List<DataFileEntry> files, int rowsPerChunk)
            throws IOException {
        long total = files.stream().mapToLong(DataFileEntry::rows).sum();
        if (total > ORDINAL_MASK) {
            throw new IllegalArgumentException(
                    "A group of " + total + " rows is too large to order in one compaction; compact it unordered");
        }
        int rows = (int) total;
        double[] x = new double[rows];
        double[] y = new double[rows];
        long[] firstRowOfFile = new long[files.size()];
        Envelope extent = new Envelope();
        int row = 0;
        for (int f = 0; f < files.size(); f++) {
            firstRowOfFile[f] = row;
            DataFileEntry file = files.get(f);
            String column = archive.descriptor().geometryColumn();
            try (GeoParquetFileReader reader =
                    LiveFiles.open(archive.storage(), state, file).project(List.of(column))) {
                GeometryCodec codec = archive.geometryCodec(reader.readSchema());
                long inFile = 0;
                for (Iterator<Group> it = reader.rows(); it.hasNext(); inFile++, row++) {
                    if (row >= rows) {
                        throw new ParquetFileException(
                                reader.footer().file(), "holds more rows than it is committed with: " + file.rows());
                    }
                    Geometry geometry = codec.decode(it.next(), inFile);
                    if (geometry == null || geometry.isEmpty()) {
                        x[row] = Double.NaN;
                        continue;
                    }
                    Envelope envelope = geometry.getEnvelopeInternal();
                    x[row] = envelope.centre().x;
                    y[row] = envelope.centre().y;
                    extent.expandToInclude(x[row], y[row]);
                }
                if (inFile != file.rows()) {
                    throw new ParquetFileException(
                            reader.footer().file(), "holds " + inFile + " rows but is committed with " + file.rows());
                }
            }
        }
        long[] ranked = new long[rows];
        int maxOrdinate = HilbertCode.maxOrdinate(LEVEL);
        for (int i = 0; i < rows; i++) {
            long index = Double.isNaN(x[i])
                    ? NO_GEOMETRY
                    : Integer.toUnsignedLong(HilbertCode.encode(
                            LEVEL,
                            gridOrdinate(x[i], extent.getMinX(), extent.getMaxX(), maxOrdinate),
                            gridOrdinate(y[i], extent.getMinY(), extent.getMaxY(), maxOrdinate)));
            ranked[i] = (index << 31) | i;
        }
        Arrays.sort(ranked);
        int[] chunkOfRow = new int[rows];
        for (int rank = 0; rank < rows; rank++) {
            chunkOfRow[(int) (ranked[rank] & ORDINAL_MASK)] = rank / rowsPerChunk;
        }
        int chunkCount = rows == 0 ? 0 : (rows - 1) / rowsPerChunk + 1;
        List<BitSet> chunksOfFile = new ArrayList<>(files.size());
        for (int f = 0; f < files.size(); f++) {
            BitSet chunks = new BitSet(chunkCount);
            long end = firstRowOfFile[f] + files.get(f).rows();
            for (long r = firstRowOfFile[f]; r < end; r++) {
                chunks.set(chunkOfRow[(int) r]);
            }
            chunksOfFile.add(chunks);
        }
        return new HilbertChunks(chunkOfRow, firstRowOfFile, chunksOfFile, chunkCount);
    }

    private static int gridOrdinate(double value, double min, double max, int maxOrdinate) {
        if (!(max > min)) {
            return 0;
        }
        return (int) Math.min(maxOrdinate, Math.max(0, Math.floor((value - min) / (max - min) * maxOrdinate)));
    }

    int chunkCount() {
        return chunkCount;
    }

    /** Whether the {@code file}-th file of the group holds any row of {@code chunk}. */
    boolean fileHolds(int file, int chunk) {
        return chunksOfFile.get(file).get(chunk);
    }

    /** The chunk of the {@code row}-th row (0-based) of the {@code file}-th file of the group. */
    int chunkOf(int file, long row) {
        return chunkOfRow[(int) (firstRowOfFile[file] + row)];
    }
}
