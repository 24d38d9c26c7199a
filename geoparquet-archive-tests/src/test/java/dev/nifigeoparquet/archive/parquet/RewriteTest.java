package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A file rewritten by the engine is the same file to every reader, down to its canonical footer bytes. */
class RewriteTest {

    @TempDir
    Path dir;

    static Stream<String> peerFiles() {
        List<String> files = PeerData.parquetFiles();
        assertFalse(files.isEmpty(), "no peer Parquet files found");
        return files.stream();
    }

    @ParameterizedTest
    @MethodSource("peerFiles")
    void rewriteKeepsSchemaRowsAndCanonicalFooterBytes(String peerFile) throws Exception {
        Path source = PeerData.copy(peerFile, dir.resolve("in"));
        Path target = dir.resolve("out.parquet");

        ParquetRows.rewrite(source, target, WriterSettings.defaults());

        ParquetRows.Contents before = ParquetRows.read(source);
        ParquetRows.Contents after = ParquetRows.read(target);
        assertEquals(before.footer().schema(), after.footer().schema(), "schema incl. logical annotations");
        assertEquals(rowsAsText(before), rowsAsText(after), "rows");

        Map<String, String> canonicalBefore = before.footer().canonicalEntries().asMap();
        Map<String, String> canonicalAfter = after.footer().canonicalEntries().asMap();
        assertEquals(
                List.copyOf(canonicalBefore.keySet()), List.copyOf(canonicalAfter.keySet()), "canonical keys in order");
        assertEquals(
                GeoParquetFileWriter.WRITER_MODEL,
                after.footer().keyValues().get(GeoParquetFileWriter.WRITER_MODEL_KEY));

        // DuckDB, which shares no code with parquet-java, sees the same bytes and rows in both files.
        Map<String, byte[]> duckBefore = DuckDb.footerEntries(source);
        Map<String, byte[]> duckAfter = DuckDb.footerEntries(target);
        for (String key : canonicalBefore.keySet()) {
            assertArrayEquals(duckBefore.get(key), duckAfter.get(key), "footer entry " + key + " byte for byte");
            assertArrayEquals(
                    canonicalBefore.get(key).getBytes(StandardCharsets.UTF_8),
                    duckAfter.get(key),
                    "footer entry " + key + " as our reader decoded it");
        }
        assertEquals(before.rows().size(), DuckDb.countRows(target));
        assertEquals(DuckDb.countRows(source), DuckDb.countRows(target));
    }

    @ParameterizedTest
    @MethodSource("peerFiles")
    void everyCodecRoundTrips(String peerFile) throws Exception {
        Path source = PeerData.copy(peerFile, dir.resolve("in"));
        ParquetRows.Contents before = ParquetRows.read(source);
        for (CompressionCodecName codec : WriterSettings.SUPPORTED_CODECS) {
            Path target = dir.resolve(codec + ".parquet");
            ParquetRows.rewrite(
                    source, target, WriterSettings.defaults().withCodec(codec).withRowGroupRowCountLimit(7));
            ParquetRows.Contents after = ParquetRows.read(target);
            assertEquals(rowsAsText(before), rowsAsText(after), codec.name());
            after.footer()
                    .rowGroups()
                    .forEach(block ->
                            block.getColumns().forEach(column -> assertEquals(codec, column.getCodec(), peerFile)));
            assertEquals(before.rows().size(), DuckDb.countRows(target), "DuckDB reads " + codec);
        }
    }

    private static List<String> rowsAsText(ParquetRows.Contents contents) {
        List<String> rows = new ArrayList<>();
        contents.rows().forEach(row -> rows.add(row.toString()));
        return rows;
    }
}
