package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.parquet.ColumnEncodings;
import dev.nifigeoparquet.archive.parquet.ColumnarRowGroup;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.StoredRowGroup;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.parquet.WrittenFile;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows into staged data files of the archive's exact schema and footer, starting a new file once the
 * current one reaches the target file size (checked at row-group boundaries, where bytes reach the file).
 * The single place operations and compaction write data files.
 */
public final class RollingFileWriter implements Closeable {

    private final DataFileStager stager;
    private final MessageType schema;
    private final FooterEntries footer;
    private final WriterSettings settings;
    private final ColumnEncodings encodings;
    private ColumnEncodings nextFileEncodings;
    private final List<NewDataFile> written = new ArrayList<>();
    private final Deque<String> namesToReuse = new ArrayDeque<>();
    private GeoParquetFileWriter.PageCompression compression = GeoParquetFileWriter.PageCompression.ON_WRITING_THREAD;

    private GeoParquetFileWriter current;
    private DataFileStager.StagedFile currentFile;
    private long bytes;

    public RollingFileWriter(DataFileStager stager, MessageType schema, FooterEntries footer, WriterSettings settings) {
        this(stager, schema, footer, settings, ColumnEncodings.defaults());
    }

    /** With these encoding choices instead of the defaults. */
    public RollingFileWriter(
            DataFileStager stager,
            MessageType schema,
            FooterEntries footer,
            WriterSettings settings,
            ColumnEncodings encodings) {
        this.stager = stager;
        this.schema = schema;
        this.footer = footer;
        this.settings = settings;
        this.encodings = encodings;
        this.nextFileEncodings = encodings;
    }

    /**
     * Publishes the files this writer starts, in turn, in place of these live files (each takes one's name and place),
     * then under fresh names. A plain reader then sees each of those files switch from its old content to its new.
     */
    public RollingFileWriter replacing(List<String> liveNames) {
        namesToReuse.addAll(liveNames);
        return this;
    }

    /**
     * Compresses pages on helper threads while rows are still being written (see
     * {@link GeoParquetFileWriter.PageCompression#AHEAD}): for writes of many rows.
     */
    public RollingFileWriter compressingAhead() {
        compression = GeoParquetFileWriter.PageCompression.AHEAD;
        return this;
    }

    /**
     * Encodes the files started from now on like {@code input}, a file whose rows are being copied into them: without
     * a dictionary for the columns it holds no dictionary-encoded page for ({@link ColumnEncodings#likeFile}). A copy
     * of a small file's rows into a larger one would otherwise hash every distinct value of such a column into a
     * dictionary only to drop it once the dictionary outgrows its limit.
     */
    public void encodeLike(ParquetFooter input) {
        nextFileEncodings = encodings.likeFile(input);
    }

    public void write(Group row) throws IOException {
        startFileIfNeeded().write(row);
        finishFileIfFull();
    }

    /**
     * The top-level fields of {@code input}'s row group {@code rowGroup} whose pages the file being written can take as
     * they are stored (see {@link GeoParquetFileWriter#storedFieldsCopyable}).
     */
    public Set<String> storedFieldsCopyable(ParquetFooter input, int rowGroup) throws IOException {
        return startFileIfNeeded().storedFieldsCopyable(input, rowGroup);
    }

    /** Copies a whole row group read for copying (see {@link GeoParquetFileWriter#copyRowGroup}). */
    public void copyRowGroup(StoredRowGroup group) throws IOException {
        startFileIfNeeded().copyRowGroup(group);
        finishFileIfFull();
    }

    /** Copies the next row of {@code source} unchanged (see {@link GeoParquetFileWriter#copyRow}). */
    public void copyRow(ColumnarRowGroup source) throws IOException {
        startFileIfNeeded().copyRow(source);
        finishFileIfFull();
    }

    /** Ends the current file's row group, if a file is open (see {@link GeoParquetFileWriter#endRowGroup}). */
    public void endRowGroup() throws IOException {
        if (current != null) {
            current.endRowGroup();
            finishFileIfFull();
        }
    }

    private GeoParquetFileWriter startFileIfNeeded() throws IOException {
        if (current == null) {
            currentFile = namesToReuse.isEmpty() ? stager.stage() : stager.stageReplacing(namesToReuse.poll());
            current = GeoParquetFileWriter.create(
                    currentFile.output(), currentFile.name(), schema, footer, settings, nextFileEncodings, compression);
        }
        return current;
    }

    private void finishFileIfFull() throws IOException {
        if (currentFile.output().bytesWritten() >= settings.targetFileBytes()) {
            finishCurrent();
        }
    }

    /** Finishes the last file and returns every file written, in order. */
    public List<NewDataFile> finish() throws IOException {
        finishCurrent();
        return List.copyOf(written);
    }

    /**
     * Like {@link #finish()}, but writes a file without rows when no row was written: a partition whose rows are all
     * deleted keeps a file, replaced in one step, so a plain reader listing it never finds it missing.
     */
    public List<NewDataFile> finishKeepingAFile() throws IOException {
        if (written.isEmpty()) {
            startFileIfNeeded();
        }
        return finish();
    }

    /** Total bytes of the finished files. */
    public long bytesWritten() {
        return bytes;
    }

    private void finishCurrent() throws IOException {
        if (current == null) {
            return;
        }
        WrittenFile file = current.finish();
        written.add(new NewDataFile(currentFile.name(), file.rows(), file.bytes(), currentFile.replaces()));
        bytes += file.bytes();
        current.close();
        current = null;
        currentFile = null;
    }

    /** Abandons an unfinished file, releasing its stream; the stager removes what was staged. */
    @Override
    public void close() throws IOException {
        if (current != null) {
            try {
                current.close();
            } finally {
                currentFile.output().abandon();
                current = null;
                currentFile = null;
            }
        }
    }
}
