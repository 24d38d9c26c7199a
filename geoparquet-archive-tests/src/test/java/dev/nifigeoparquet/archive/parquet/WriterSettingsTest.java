package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

class WriterSettingsTest {

    @Test
    void defaultsAreZstdLevel3HundredThousandRowsAnd128MiB() {
        WriterSettings settings = WriterSettings.defaults();
        assertEquals(CompressionCodecName.ZSTD, settings.codec());
        assertEquals(3, settings.zstdLevel());
        assertEquals(100_000, settings.rowGroupRowCount());
        assertEquals(128L * 1024 * 1024, settings.targetFileBytes());
    }

    @Test
    void invalidValuesAreRejectedWithTheValueInTheMessage() {
        assertMessageContains("0", () -> WriterSettings.defaults().withZstdLevel(0));
        assertMessageContains("23", () -> WriterSettings.defaults().withZstdLevel(23));
        assertMessageContains("-5", () -> WriterSettings.defaults().withRowGroupRowCountLimit(-5));
        assertMessageContains("0 bytes", () -> WriterSettings.defaults().withTargetFileBytes(0));
        assertMessageContains("BROTLI", () -> WriterSettings.defaults().withCodec(CompressionCodecName.BROTLI));
    }

    private static void assertMessageContains(String expected, Runnable action) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, action::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
