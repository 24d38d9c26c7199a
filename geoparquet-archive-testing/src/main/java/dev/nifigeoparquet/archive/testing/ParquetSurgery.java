package dev.nifigeoparquet.archive.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.function.Consumer;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * Valid Parquet files with one number changed, re-serialised the way a writer would have written it: the footer, or
 * the first page header of the file's last column chunk. Everything else stays consistent, so the reader meets
 * exactly the one impossible number.
 */
public final class ParquetSurgery {

    private ParquetSurgery() {}

    /** The file with its footer changed; the data bytes are untouched. */
    public static byte[] withFooter(byte[] file, Consumer<FileMetaData> change) {
        FileMetaData footer = footer(file);
        change.accept(footer);
        return assemble(file, 0, 0, new byte[0], footerStart(file), footer);
    }

    /**
     * The file with the first page header of its last column chunk changed. When the header's encoding changes
     * length, the chunk's sizes and every offset after it move with it, so the footer stays right.
     */
    public static byte[] withLastChunkPageHeader(byte[] file, Consumer<PageHeader> change) {
        FileMetaData footer = footer(file);
        ColumnMetaData last = footer.getRow_groups().stream()
                .flatMap(group -> group.getColumns().stream())
                .map(ColumnChunk::getMeta_data)
                .max(Comparator.comparingLong(ParquetSurgery::start))
                .orElseThrow();
        long start = start(last);
        ByteArrayInputStream in = new ByteArrayInputStream(file, (int) start, file.length - (int) start);
        PageHeader header;
        try {
            header = Util.readPageHeader(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int oldLength = file.length - (int) start - in.available();
        change.accept(header);
        ByteArrayOutputStream rewritten = new ByteArrayOutputStream();
        try {
            Util.writePageHeader(header, rewritten);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long shift = (long) rewritten.size() - oldLength;
        last.setTotal_compressed_size(last.getTotal_compressed_size() + shift);
        last.setTotal_uncompressed_size(last.getTotal_uncompressed_size() + shift);
        for (RowGroup group : footer.getRow_groups()) {
            @SuppressWarnings("ReferenceEquality") // the very chunk whose header changed, not one equal to it
            boolean holdsLast = group.getColumns().stream().anyMatch(c -> c.getMeta_data() == last);
            if (group.isSetTotal_compressed_size() && holdsLast) {
                group.setTotal_compressed_size(group.getTotal_compressed_size() + shift);
            }
            for (ColumnChunk chunk : group.getColumns()) {
                shiftOffsets(chunk, start, shift);
            }
        }
        return assemble(file, (int) start, oldLength, rewritten.toByteArray(), footerStart(file), footer);
    }

    private static long start(ColumnMetaData column) {
        return column.isSetDictionary_page_offset() && column.getDictionary_page_offset() > 0
                ? Math.min(column.getDictionary_page_offset(), column.getData_page_offset())
                : column.getData_page_offset();
    }

    private static void shiftOffsets(ColumnChunk chunk, long after, long shift) {
        ColumnMetaData meta = chunk.getMeta_data();
        if (meta.getData_page_offset() > after) {
            meta.setData_page_offset(meta.getData_page_offset() + shift);
        }
        if (meta.isSetDictionary_page_offset() && meta.getDictionary_page_offset() > after) {
            meta.setDictionary_page_offset(meta.getDictionary_page_offset() + shift);
        }
        if (meta.isSetIndex_page_offset() && meta.getIndex_page_offset() > after) {
            meta.setIndex_page_offset(meta.getIndex_page_offset() + shift);
        }
        if (meta.isSetBloom_filter_offset() && meta.getBloom_filter_offset() > after) {
            meta.setBloom_filter_offset(meta.getBloom_filter_offset() + shift);
        }
        if (chunk.isSetOffset_index_offset() && chunk.getOffset_index_offset() > after) {
            chunk.setOffset_index_offset(chunk.getOffset_index_offset() + shift);
        }
        if (chunk.isSetColumn_index_offset() && chunk.getColumn_index_offset() > after) {
            chunk.setColumn_index_offset(chunk.getColumn_index_offset() + shift);
        }
        if (chunk.getFile_offset() > after) {
            chunk.setFile_offset(chunk.getFile_offset() + shift);
        }
    }

    private static int footerLength(byte[] file) {
        return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getInt(file.length - 8);
    }

    private static int footerStart(byte[] file) {
        return file.length - 8 - footerLength(file);
    }

    private static FileMetaData footer(byte[] file) {
        try {
            return Util.readFileMetaData(new ByteArrayInputStream(file, footerStart(file), footerLength(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The data with bytes [at, at + removed) replaced by {@code inserted}, then the footer, its length and the magic. */
    private static byte[] assemble(
            byte[] file, int at, int removed, byte[] inserted, int footerStart, FileMetaData footer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(file, 0, at);
        out.writeBytes(inserted);
        out.write(file, at + removed, footerStart - at - removed);
        ByteArrayOutputStream encoded = new ByteArrayOutputStream();
        try {
            Util.writeFileMetaData(footer, encoded);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.writeBytes(encoded.toByteArray());
        out.writeBytes(ByteBuffer.allocate(4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(encoded.size())
                .array());
        out.writeBytes("PAR1".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
