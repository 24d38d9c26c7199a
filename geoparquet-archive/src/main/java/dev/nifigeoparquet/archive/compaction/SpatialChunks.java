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
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.shape.fractal.HilbertCode;

/**
 * Which output row group each row of a compaction group belongs to when the rows are ordered spatially, by the centre of
 * their envelope on a 2<sup>16</sup> grid over the group's extent ({@link RowOrder}):
 * <ul>
 * <li>{@link RowOrder#HILBERT}: rows ranked by the Hilbert index of their cell, consecutive ranks filling row groups
 * of the archive's row count;</li>
 * <li>{@link RowOrder#TILES}: sort-tile-recursive packing: rows sorted by x into about the square root of the number
 * of row groups vertical slabs, each slab a whole number of row groups, then by y inside each slab, so each row group
 * is a compact tile and the tiles' extents barely overlap.</li>
 * </ul>
 *
 * <p>Only the assignment to row groups is kept (a few bytes per row), not the rows: a row group's min/max statistics,
 * which readers prune by, do not depend on the order of the rows inside it, so the compactor writes the chunks one
 * after another, each in input order, with no row held in memory. Rows without a geometry rank last.
 */
final class SpatialChunks {

    private static final int LEVEL = HilbertCode.MAX_LEVEL;
    private static final long NO_GEOMETRY = 1L << 32;
    private static final long ORDINAL_MASK = (1L << 31) - 1;

    /** The chunk of each row, indexed by the row's position across the group's files in order. */
    private final int[] chunkOfRow;

    private final long[] firstRowOfFile;
    private final List<BitSet> chunksOfFile;
    private final int chunkCount;

    private SpatialChunks(int[] chunkOfRow, long[] firstRowOfFile, List<BitSet> chunksOfFile, int chunkCount) {
        this.chunkOfRow = chunkOfRow;
        this.firstRowOfFile = firstRowOfFile;
        this.chunksOfFile = chunksOfFile;
        this.chunkCount = chunkCount;
    }

    /** Reads the geometry column of {@code files} (nothing else) and assigns every row its chunk. */
    static SpatialChunks of(
            GeoParquetArchive archive,
            PartitionCommit state,
            List<DataFileEntry> files,
            int rowsPerChunk,
            RowOrder order)
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
                    Coordinate centre = geometry.getEnvelopeInternal().centre();
                    x[row] = centre.x;
                    y[row] = centre.y;
                    extent.expandToInclude(x[row], y[row]);
                }
                if (inFile != file.rows()) {
                    throw new ParquetFileException(
                            reader.footer().file(), "holds " + inFile + " rows but is committed with " + file.rows());
                }
            }
        }
        int maxOrdinate = HilbertCode.maxOrdinate(LEVEL);
        int[] gridX = new int[rows];
        int[] gridY = new int[rows];
        for (int i = 0; i < rows; i++) {
            // Rows without a geometry take the cell past the grid's far corner: they come last.
            boolean none = Double.isNaN(x[i]);
            gridX[i] = none ? maxOrdinate + 1 : gridOrdinate(x[i], extent.getMinX(), extent.getMaxX(), maxOrdinate);
            gridY[i] = none ? maxOrdinate + 1 : gridOrdinate(y[i], extent.getMinY(), extent.getMaxY(), maxOrdinate);
        }
        int[] chunkOfRow = order == RowOrder.TILES
                ? tiles(gridX, gridY, rowsPerChunk)
                : alongHilbertCurve(gridX, gridY, maxOrdinate, rowsPerChunk);
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
        return new SpatialChunks(chunkOfRow, firstRowOfFile, chunksOfFile, chunkCount);
    }

    private static int[] alongHilbertCurve(int[] gridX, int[] gridY, int maxOrdinate, int rowsPerChunk) {
        long[] ranked = new long[gridX.length];
        for (int i = 0; i < gridX.length; i++) {
            long index = gridX[i] > maxOrdinate
                    ? NO_GEOMETRY
                    : Integer.toUnsignedLong(HilbertCode.encode(LEVEL, gridX[i], gridY[i]));
            ranked[i] = (index << 31) | i; // ties keep input order
        }
        Arrays.sort(ranked);
        int[] chunkOfRow = new int[gridX.length];
        for (int rank = 0; rank < ranked.length; rank++) {
            chunkOfRow[(int) (ranked[rank] & ORDINAL_MASK)] = rank / rowsPerChunk;
        }
        return chunkOfRow;
    }

    private static int[] tiles(int[] gridX, int[] gridY, int rowsPerChunk) {
        int rows = gridX.length;
        int chunkCount = rows == 0 ? 0 : (rows - 1) / rowsPerChunk + 1;
        int slabs = Math.max(1, (int) Math.ceil(Math.sqrt(chunkCount)));
        long rowsPerSlab = (long) ((chunkCount + slabs - 1) / slabs) * rowsPerChunk;
        int chunksPerSlab = (int) (rowsPerSlab / rowsPerChunk);
        long[] byX = new long[rows];
        for (int i = 0; i < rows; i++) {
            byX[i] = ((long) gridX[i] << 31) | i;
        }
        Arrays.sort(byX);
        int[] chunkOfRow = new int[rows];
        for (int slab = 0; (long) slab * rowsPerSlab < rows; slab++) {
            int from = (int) (slab * rowsPerSlab);
            int to = (int) Math.min(rows, from + rowsPerSlab);
            long[] byY = new long[to - from];
            for (int r = from; r < to; r++) {
                int ordinal = (int) (byX[r] & ORDINAL_MASK);
                byY[r - from] = ((long) gridY[ordinal] << 31) | ordinal;
            }
            Arrays.sort(byY);
            for (int rank = 0; rank < byY.length; rank++) {
                chunkOfRow[(int) (byY[rank] & ORDINAL_MASK)] = slab * chunksPerSlab + rank / rowsPerChunk;
            }
        }
        return chunkOfRow;
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
