package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
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
 * their envelope on a 2<sup>16</sup> grid over the group's extent ({@link RowOrder}). The group needs
 * {@code ceil(rows / rowsPerChunk)} row groups at the archive's row count; the rows are spread evenly over the chunks
 * rather than filling all but the last, so no chunk is a thin remainder:
 * <ul>
 * <li>{@link RowOrder#HILBERT}: rows ranked by the Hilbert index of their cell and cut into that many equal runs;</li>
 * <li>{@link RowOrder#TILES}: sort-tile-recursive packing on a near-square grid: rows sorted by x into
 * {@code ceil(sqrt(needed))} vertical slabs of equal count, each slab sorted by y and cut into as many equal tiles as
 * make the grid hold at least the needed chunks. A grid of 3 by 3 tiles for 7 needed row groups writes 9 smaller
 * ones, but each is a compact tile, where 7 would leave slabs of uneven width and a remainder sliver that a query
 * box meets more often than its share.</li>
 * </ul>
 * No chunk holds more than {@code rowsPerChunk} rows.
 *
 * <p>Only the assignment to row groups is kept (a few bytes per row), not the rows: a row group's min/max statistics,
 * which readers prune by, do not depend on the order of the rows inside it, so the compactor writes the chunks one
 * after another, each in input order, with no row held in memory. Rows without a geometry rank last.
 */
final class SpatialChunks {

    private static final int LEVEL = HilbertCode.MAX_LEVEL;
    private static final long NO_GEOMETRY = 1L << 32;
    /** A sort key is a rank (a curve index, 33 bits with NO_GEOMETRY) above the row's ordinal: 30 bits keep it positive. */
    private static final int ORDINAL_BITS = 30;

    private static final long ORDINAL_MASK = (1L << ORDINAL_BITS) - 1;

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
        Grid grid = new Grid(x, y, extent);
        int needed = rows == 0 ? 0 : (rows - 1) / rowsPerChunk + 1;
        int slabs = Math.max(1, (int) Math.ceil(Math.sqrt(needed)));
        int tilesPerSlab = needed == 0 ? 0 : (needed - 1) / slabs + 1;
        int chunkCount = order == RowOrder.TILES ? slabs * tilesPerSlab : needed;
        int[] chunkOfRow =
                order == RowOrder.TILES ? tiles(grid, slabs, tilesPerSlab) : alongHilbertCurve(grid, chunkCount);
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

    private static int[] alongHilbertCurve(Grid grid, int chunkCount) {
        long[] ranked = new long[grid.rows()];
        for (int i = 0; i < ranked.length; i++) {
            int gridX = grid.x(i);
            long index = gridX > grid.maxOrdinate
                    ? NO_GEOMETRY
                    : Integer.toUnsignedLong(HilbertCode.encode(LEVEL, gridX, grid.y(i)));
            ranked[i] = (index << ORDINAL_BITS) | i; // ties keep input order
        }
        Arrays.sort(ranked);
        int[] chunkOfRow = new int[ranked.length];
        for (int rank = 0; rank < ranked.length; rank++) {
            chunkOfRow[(int) (ranked[rank] & ORDINAL_MASK)] = evenShare(rank, ranked.length, chunkCount);
        }
        return chunkOfRow;
    }

    private static int[] tiles(Grid grid, int slabs, int tilesPerSlab) {
        int rows = grid.rows();
        long[] byX = new long[rows];
        for (int i = 0; i < rows; i++) {
            byX[i] = ((long) grid.x(i) << ORDINAL_BITS) | i;
        }
        Arrays.sort(byX);
        int[] chunkOfRow = new int[rows];
        for (int slab = 0; slab < slabs; slab++) {
            int from = (int) ((long) slab * rows / slabs);
            int to = (int) ((long) (slab + 1) * rows / slabs);
            long[] byY = new long[to - from];
            for (int r = from; r < to; r++) {
                int ordinal = (int) (byX[r] & ORDINAL_MASK);
                byY[r - from] = ((long) grid.y(ordinal) << ORDINAL_BITS) | ordinal;
            }
            Arrays.sort(byY);
            for (int rank = 0; rank < byY.length; rank++) {
                chunkOfRow[(int) (byY[rank] & ORDINAL_MASK)] =
                        slab * tilesPerSlab + evenShare(rank, byY.length, tilesPerSlab);
            }
        }
        return chunkOfRow;
    }

    /** Which of {@code parts} equal runs of {@code count} ranks the rank falls in; run sizes differ by one at most. */
    private static int evenShare(int rank, int count, int parts) {
        return (int) ((long) rank * parts / count);
    }

    /**
     * The rows' envelope centres on the 2<sup>16</sup> grid over their extent, computed when asked rather than stored:
     * an ordered compaction holds a few arrays of one entry per row, and two fewer of them is 8 bytes a row less.
     */
    private static final class Grid {

        private final double[] centreX;
        private final double[] centreY;
        private final Envelope extent;
        private final int maxOrdinate = HilbertCode.maxOrdinate(LEVEL);

        Grid(double[] centreX, double[] centreY, Envelope extent) {
            this.centreX = centreX;
            this.centreY = centreY;
            this.extent = extent;
        }

        int rows() {
            return centreX.length;
        }

        /** The row's column; past the grid's far corner for a row without a geometry, so such rows come last. */
        int x(int row) {
            double value = centreX[row];
            return Double.isNaN(value) ? maxOrdinate + 1 : ordinate(value, extent.getMinX(), extent.getMaxX());
        }

        int y(int row) {
            return Double.isNaN(centreX[row])
                    ? maxOrdinate + 1
                    : ordinate(centreY[row], extent.getMinY(), extent.getMaxY());
        }

        private int ordinate(double value, double min, double max) {
            if (!(max > min)) {
                return 0;
            }
            return (int) Math.min(maxOrdinate, Math.max(0, Math.floor((value - min) / (max - min) * maxOrdinate)));
        }
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
