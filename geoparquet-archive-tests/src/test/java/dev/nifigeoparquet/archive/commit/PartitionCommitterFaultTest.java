package dev.nifigeoparquet.archive.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import dev.nifigeoparquet.archive.testing.StorageBackend;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.apache.parquet.io.PositionOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fails every storage call of a commit in turn, with each kind of fault, and checks that the partition then
 * reads as exactly the old or exactly the new state, that recovery leaves no staged or superseded file behind
 * once the writer lease has passed, and that retrying the operation lands it exactly once. Runs on the local
 * filesystem; a subclass overriding {@link #backend()} runs the same suite on another storage.
 */
class PartitionCommitterFaultTest {

    /** The storage the suite runs on. */
    StorageBackend backend() {
        return StorageBackend.LOCAL;
    }

    private static final String CELL = "8428309ffffffff";
    private final Instant start = Instant.now();

    @TempDir
    Path temp;

    @Test
    void everyStorageCallOfACommitCanFailAndTheArchiveRecovers() throws IOException {
        Path baseline = temp.resolve("baseline");
        PartitionCommit old = seedPartition(baseline);

        FaultInjectingStorage counter =
                FaultInjectingStorage.counting(backend().storage(backend().copy(baseline, temp.resolve("count"))));
        committer(counter, start).commit(CELL, "op-2", OperationType.UPSERT, replaceWithTwoFiles());
        int calls = counter.callCount();
        assertTrue(calls > 8, "a commit makes several storage calls, saw " + counter.calls());

        int exercised = 0;
        for (Fault fault : Fault.values()) {
            for (int failAt = 1; failAt <= calls; failAt++) {
                Path archive = backend().copy(baseline, temp.resolve(fault + "-" + failAt));
                FaultInjectingStorage faulty =
                        new FaultInjectingStorage(backend().storage(archive), failAt, fault);
                try {
                    committer(faulty, start).commit(CELL, "op-2", OperationType.UPSERT, replaceWithTwoFiles());
                } catch (IOException expected) {
                    // the fault; what matters is the state it left
                }
                String where =
                        fault + " at call " + failAt + " (" + faulty.calls().get(failAt - 1) + ")";
                assertOldOrNew(archive, old, where);
                assertRetryLandsExactlyOnce(archive, where);
                exercised++;
            }
        }
        System.out.println("commit fault points exercised: " + exercised + " (" + calls + " calls x "
                + Fault.values().length + " faults)");
    }

    @Test
    void twoWritersOfTheSameVersionOneWinsTheOtherRetriesOnTheNewState() throws IOException {
        Path root = temp.resolve("race");
        seedPartition(root);
        ArchiveStorage storage = backend().storage(root);
        PartitionLog log = new PartitionLog(storage, CELL);

        // Another process commits version 2 while this writer is computing its own version 2.
        PartitionUpdate interleaved = new PartitionUpdate() {
            private boolean first = true;

            @Override
            public PartitionChange apply(PartitionCommit current, DataFileStager stager) throws IOException {
                if (first) {
                    first = false;
                    PartitionCommit rival = current.next(
                            "rival",
                            OperationType.APPEND,
                            start,
                            List.of(current.files().get(0), new DataFileEntry("part-rival.parquet", 7, 1, start)),
                            List.of("part-rival.parquet"),
                            List.of(),
                            10);
                    storage.createStaged(ArchiveLayout.stagedFile(CELL, "part-rival.parquet"))
                            .close();
                    log.commit(rival);
                }
                return new PartitionChange(List.of(stageFile(stager, 3)), List.of());
            }
        };
        CommitOutcome outcome = committer(storage, start).commit(CELL, "mine", OperationType.APPEND, interleaved);

        assertEquals(2, outcome.attempts(), "lost the first race, won the second");
        assertEquals(3, outcome.after().version());
        assertEquals(2 + 7 + 3, outcome.after().rowCount(), "both appends survive: no lost update");
        assertEquals(
                List.of("rival", "mine"), outcome.after().recentOperationIds().subList(1, 3));
        assertEquals(
                Set.copyOf(outcome.after().fileNames()),
                partitionFiles(root),
                "plain readers see exactly the live files");
        assertTrue(stagingFiles(root).isEmpty(), "the losing attempt's staged file was discarded");
    }

    @Test
    void exclusiveCreationHasExactlyOneWinnerUnderRealConcurrency() throws Exception {
        assumeTrue(backend().serialisesRaces(), backend() + " does not serialise simultaneous exclusive creations");
        ArchiveStorage storage = backend().storage(temp.resolve("concurrent"));
        for (int round = 0; round < 50; round++) {
            String path = "_geoparquet_archive/log/" + CELL + "/" + String.format("%020d", round) + ".json";
            List<Thread> threads = new ArrayList<>();
            List<String> winners = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 4; t++) {
                String content = "writer-" + t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        storage.createExclusive(path, content.getBytes(StandardCharsets.UTF_8));
                        winners.add(content);
                    } catch (FileAlreadyExistsException lost) {
                        // expected for all but one
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(1, winners.size(), "round " + round + " winners " + winners);
            assertEquals(
                    winners.get(0),
                    new String(storage.readAllBytes(path), StandardCharsets.UTF_8),
                    "the entry holds the winner's content whole");
        }
    }

    @Test
    void stagedFilesOfAConcurrentWriterSurviveRecoveryWithinTheLease() throws IOException {
        Path root = temp.resolve("lease");
        seedPartition(root);
        ArchiveStorage storage = backend().storage(root);
        storage.createStaged(ArchiveLayout.stagedFile(CELL, "part-inflight.parquet"))
                .close();

        new PartitionRecovery(storage, ProtocolSettings.DEFAULT).recover(CELL, Instant.now());
        assertEquals(Set.of("part-inflight.parquet.staged"), stagingFiles(root), "within the lease it is kept");

        new PartitionRecovery(storage, ProtocolSettings.DEFAULT)
                .recover(CELL, Instant.now().plus(Duration.ofHours(2)));
        assertTrue(stagingFiles(root).isEmpty(), "after the lease it is removed");
    }

    @Test
    void replayedOperationIdIsANoOp() throws IOException {
        Path root = temp.resolve("replay");
        PartitionCommit old = seedPartition(root);
        ArchiveStorage storage = backend().storage(root);
        CommitOutcome replay = committer(storage, start)
                .commit(
                        CELL,
                        old.operationId(),
                        OperationType.APPEND,
                        (current, stager) -> new PartitionChange(List.of(stageFile(stager, 5)), List.of()));
        assertTrue(replay.replay());
        assertEquals(old, new PartitionLog(storage, CELL).latest());
        assertTrue(stagingFiles(root).isEmpty(), "a replay stages nothing");
    }

    @Test
    void aWriterThatKeepsLosingGivesUpAfterTheAttemptsAndAnInterruptStopsItAtOnce() throws IOException {
        Path root = temp.resolve("losing");
        seedPartition(root);
        ArchiveStorage storage = backend().storage(root);
        PartitionLog log = new PartitionLog(storage, CELL);
        int maxAttempts = ProtocolSettings.DEFAULT.maxCommitAttempts();

        // Another writer commits before every attempt of this one can.
        int[] attempts = {0};
        PartitionUpdate alwaysLoses = (current, stager) -> {
            attempts[0]++;
            log.commit(current.next(
                    "rival-" + attempts[0], OperationType.APPEND, start, current.files(), List.of(), List.of(), 10));
            return new PartitionChange(List.of(stageFile(stager, 3)), List.of());
        };
        CommitConflictException gaveUp = assertThrows(
                CommitConflictException.class,
                () -> committer(storage, start).commit(CELL, "mine", OperationType.APPEND, alwaysLoses));
        assertEquals(maxAttempts, attempts[0], gaveUp.getMessage());
        assertTrue(gaveUp.getMessage().contains("gave up after " + maxAttempts + " attempts"), gaveUp.getMessage());

        // NiFi stopping the processor interrupts the thread as the first attempt loses: no second attempt starts.
        attempts[0] = 0;
        ArchiveStorage interruptedOnLoss = interruptingOnLostCommit(storage);
        PartitionLog rivalLog = new PartitionLog(storage, CELL);
        PartitionUpdate losesOnce = (current, stager) -> {
            attempts[0]++;
            rivalLog.commit(current.next(
                    "rival-x" + attempts[0], OperationType.APPEND, start, current.files(), List.of(), List.of(), 10));
            return new PartitionChange(List.of(stageFile(stager, 3)), List.of());
        };
        long started = System.nanoTime();
        try {
            InterruptedIOException stopped = assertThrows(
                    InterruptedIOException.class,
                    () -> committer(interruptedOnLoss, start).commit(CELL, "mine", OperationType.APPEND, losesOnce));
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept for the caller");
            assertInstanceOf(CommitConflictException.class, stopped.getCause(), "the conflict that was not retried");
        } finally {
            Thread.interrupted();
        }
        assertEquals(1, attempts[0], "one attempt, then no retry");
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 5_000, "no pause sat out");
        assertFalse(log.latest().hasCommitted("mine"));
    }

    /** The storage, with the thread interrupted whenever creating an object fails because it exists: a lost commit race. */
    private static ArchiveStorage interruptingOnLostCommit(ArchiveStorage storage) {
        return (ArchiveStorage) Proxy.newProxyInstance(
                ArchiveStorage.class.getClassLoader(),
                new Class<?>[] {ArchiveStorage.class},
                (proxy, method, arguments) -> {
                    try {
                        return method.invoke(storage, arguments);
                    } catch (InvocationTargetException e) {
                        if (method.getName().equals("createExclusive")
                                && e.getCause() instanceof FileAlreadyExistsException) {
                            Thread.currentThread().interrupt();
                        }
                        throw e.getCause();
                    }
                });
    }

    // --- helpers ---

    /** Version 1: one file of two rows. */
    private PartitionCommit seedPartition(Path root) throws IOException {
        ArchiveStorage storage = backend().storage(root);
        return committer(storage, start)
                .commit(
                        CELL,
                        "op-1",
                        OperationType.APPEND,
                        (current, stager) -> new PartitionChange(List.of(stageFile(stager, 2)), List.of()))
                .after();
    }

    /** Supersedes every live file with two new files of 3 and 4 rows. */
    private static PartitionUpdate replaceWithTwoFiles() {
        return (current, stager) ->
                new PartitionChange(List.of(stageFile(stager, 3), stageFile(stager, 4)), current.fileNames());
    }

    private static NewDataFile stageFile(DataFileStager stager, int rows) throws IOException {
        DataFileStager.StagedFile staged = stager.stage();
        try (PositionOutputStream out = staged.output().create(0)) {
            out.write(("rows=" + rows).getBytes(StandardCharsets.UTF_8));
        }
        return new NewDataFile(staged.name(), rows, staged.output().bytesWritten());
    }

    private static PartitionCommitter committer(ArchiveStorage storage, Instant now) {
        return new PartitionCommitter(storage, ProtocolSettings.DEFAULT, Clock.fixed(now, ZoneOffset.UTC));
    }

    private void assertOldOrNew(Path archive, PartitionCommit old, String where) throws IOException {
        ArchiveStorage storage = backend().storage(archive);
        PartitionCommit state = new PartitionLog(storage, CELL).latest();
        if (state.version() == old.version()) {
            assertEquals(old, state, where + ": old state intact");
        } else {
            assertEquals(old.version() + 1, state.version(), where);
            assertEquals(7, state.rowCount(), where + ": new state has exactly the new rows");
            assertEquals(2, state.files().size(), where);
        }
        // Recovery by the next writer, after the lease: exactly the live files, nothing staged, no debris.
        Instant later = start.plus(Duration.ofDays(1));
        PartitionCommit recovered = new PartitionRecovery(storage, ProtocolSettings.DEFAULT)
                .recover(CELL, later)
                .state();
        assertEquals(state, recovered, where + ": recovery does not change the committed state");
        assertEquals(
                Set.copyOf(state.fileNames()),
                partitionFiles(archive),
                where + ": partition directory holds exactly the live files");
        assertTrue(stagingFiles(archive).isEmpty(), where + ": no staged file survives recovery");
        for (String name : logDirectory(archive)) {
            assertTrue(ArchiveLayout.logEntryVersion(name) > 0, where + ": debris left in the log directory: " + name);
        }
    }

    private void assertRetryLandsExactlyOnce(Path archive, String where) throws IOException {
        ArchiveStorage storage = backend().storage(archive);
        committer(storage, start.plus(Duration.ofDays(1)))
                .commit(CELL, "op-2", OperationType.UPSERT, replaceWithTwoFiles());
        PartitionCommit state = new PartitionLog(storage, CELL).latest();
        assertEquals(2, state.version(), where + ": the retried operation committed exactly once");
        assertEquals(7, state.rowCount(), where);
        assertEquals(Set.copyOf(state.fileNames()), partitionFiles(archive), where);
    }

    private Set<String> partitionFiles(Path root) throws IOException {
        return backend().names(root, ArchiveLayout.partitionDirectory(CELL));
    }

    private Set<String> stagingFiles(Path root) throws IOException {
        return backend().names(root, ArchiveLayout.stagingDirectory(CELL));
    }

    private Set<String> logDirectory(Path root) throws IOException {
        return backend().names(root, ArchiveLayout.logDirectory(CELL));
    }
}
