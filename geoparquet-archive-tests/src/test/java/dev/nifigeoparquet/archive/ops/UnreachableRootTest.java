package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.StorageUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An open archive whose root goes away under it, as a network share that is unmounted does: the root is gone, or it is
 * the empty mount point. A write must wait for the storage (a transient failure) and never start a second archive in
 * the empty place; once the share is back the same write succeeds.
 */
class UnreachableRootTest {

    @TempDir
    Path temp;

    @Test
    void aWriteToAGoneRootFailsAsUnavailableAndCreatesNothing() throws Exception {
        ParcelArchive parcels = ParcelArchive.create(temp.resolve("share"), 300);
        Path away = temp.resolve("unmounted");
        Files.move(parcels.root, away);

        requireWaitsForTheStorage(parcels);
        assertFalse(Files.exists(parcels.root), "nothing was written where the archive was");

        Files.move(away, parcels.root);
        requireWriteSucceeds(parcels);
    }

    @Test
    void aWriteToAnEmptyMountPointFailsAsUnavailableAndCreatesNothing() throws Exception {
        ParcelArchive parcels = ParcelArchive.create(temp.resolve("share"), 300);
        Path away = Files.createDirectories(temp.resolve("unmounted"));
        List<Path> entries;
        try (Stream<Path> listed = Files.list(parcels.root)) {
            entries = listed.toList();
        }
        for (Path entry : entries) {
            Files.move(entry, away.resolve(entry.getFileName()));
        }

        requireWaitsForTheStorage(parcels);
        try (Stream<Path> listed = Files.list(parcels.root)) {
            assertEquals(List.of(), listed.toList(), "nothing was written into the empty mount point");
        }

        for (Path entry : entries) {
            Files.move(away.resolve(entry.getFileName()), entry);
        }
        requireWriteSucceeds(parcels);
    }

    private static void requireWaitsForTheStorage(ParcelArchive parcels) {
        StorageUnavailableException unavailable = assertThrows(
                StorageUnavailableException.class,
                () -> parcels.apply(parcels.largestCell(), WriteMode.UPSERT, List.of(editedRow(parcels))));
        assertEquals(FailureKind.TRANSIENT, FailureKind.of(unavailable));
        assertTrue(unavailable.getMessage().contains(parcels.root.toString()), unavailable.getMessage());
    }

    private static void requireWriteSucceeds(ParcelArchive parcels) throws Exception {
        Map<String, Double> expected = new TreeMap<>(parcels.readAreas());
        Group row = editedRow(parcels);
        expected.put(key(row), 4321.0);
        OperationResult result = parcels.apply(parcels.largestCell(), WriteMode.UPSERT, List.of(row));
        assertEquals(1, result.rows().updated());
        assertEquals(expected, parcels.readAreas());
    }

    private static Group editedRow(ParcelArchive parcels) {
        return edited(parcels.initial.get(parcels.largestCell()).get(0), 4321.0, BASE_TIME.plusSeconds(60));
    }
}
