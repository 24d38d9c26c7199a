package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.parquet.example.data.Group;

/**
 * Scenario 5, memory: scenario 1's upsert, and an upsert into one partition of many rows, each in a child JVM
 * under {@code -Xmx256m}, then again on a fresh copy under {@code -Xmx192m}, the headroom: a run that passes at 256 MiB
 * only by filling it would fail there. Success of the child (no OutOfMemoryError) is the proof; its heap pools' peaks
 * and VmHWM are recorded.
 */
final class MemoryScenario {

    static final String HEAP = "-Xmx256m";
    static final String HEADROOM_HEAP = "-Xmx192m";

    private MemoryScenario() {}

    static void run(
            NightlyDeltaScenario.Prepared prepared,
            int singlePartitionRows,
            int deltaRows,
            long seed,
            Path work,
            ObjectNode out)
            throws Exception {
        Archives.deleteTree(work);
        Files.createDirectories(work);
        for (String heap : List.of(HEAP, HEADROOM_HEAP)) {
            Path nightly = work.resolve("nightly" + heap);
            Archives.linkCopy(prepared.archive().root, nightly);
            child(
                    nightly,
                    prepared.deltaFile(),
                    heap,
                    work.resolve("nightly" + heap + ".log"),
                    out.putObject(heap.equals(HEAP) ? "nightlyUpsert" : "nightlyUpsertHeadroom"));
        }

        // One partition of many rows, and a delta of updates (80%) and new parcels (20%) into it.
        CellParcels generator = new CellParcels(NightlyDeltaScenario.RESOLUTION, seed);
        String cell = generator.cellAt(2.35, 48.85);
        Path single = work.resolve("single-partition");
        var archive = Archives.create(single, RowModel.current().footer(), NightlyDeltaScenario.RESOLUTION);
        Archives.Loader loader = new Archives.Loader(archive);
        var build = Probe.measure(() -> {
            loader.partition(cell, new Iterator<Group>() {
                private long next;

                @Override
                public boolean hasNext() {
                    return next < singlePartitionRows;
                }

                @Override
                public Group next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    long i = next++;
                    return generator.parcel(cell, ParcelWorld.id(i), i).row(ParcelWorld.LOADED_AT_MICROS);
                }
            });
            return loader.finish();
        });
        SplittableRandom random = new SplittableRandom(seed + 7);
        H3Keyer keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        List<Delta.Change> changes = new ArrayList<>();
        int updates = (int) Math.round(deltaRows * 0.8);
        Set<Long> picked = new HashSet<>();
        while (picked.size() < updates) {
            picked.add(random.nextLong(singlePartitionRows));
        }
        for (long i : picked) {
            ParcelWorld.Parcel parcel = generator.parcel(cell, ParcelWorld.id(i), i);
            parcel = parcel.corrected();
            changes.add(new Delta.Change(parcel.row(ParcelArchive.CHANGED_AT_MICROS), cell, false, Delta.Kind.UPDATE));
        }
        for (int j = 0; j < deltaRows - updates; j++) {
            long i = (long) singlePartitionRows + j;
            ParcelWorld.Parcel parcel = generator.parcel(cell, ParcelWorld.id(i), i);
            changes.add(new Delta.Change(
                    parcel.row(ParcelArchive.CHANGED_AT_MICROS), parcel.cell(keyer), false, Delta.Kind.NEW));
        }
        Path deltaFile = work.resolve("single-partition-delta.parquet");
        new Delta(changes).writeParquet(deltaFile);
        ObjectNode s = out.putObject("singlePartitionUpsert");
        s.put("partitionRows", singlePartitionRows);
        s.put("partitionBytes", archive.partitionState(cell).totalBytes());
        s.put("partitionFiles", archive.partitionState(cell).files().size());
        s.put("buildSeconds", build.measurement().seconds());
        s.put("expectedNetRows", deltaRows - updates);
        Path headroomCopy = work.resolve("single-partition-headroom");
        Archives.linkCopy(single, headroomCopy);
        child(single, deltaFile, HEAP, work.resolve("single.log"), s);
        ObjectNode headroom = out.putObject("singlePartitionUpsertHeadroom");
        headroom.put("partitionRows", singlePartitionRows);
        child(headroomCopy, deltaFile, HEADROOM_HEAP, work.resolve("single-headroom.log"), headroom);
    }

    /** Applies the delta file to the archive as an upsert in a child JVM with {@code heap}, into {@code out}. */
    static void child(Path archive, Path delta, String heap, Path log, ObjectNode out)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(
                java,
                heap,
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                UpsertProbe.class.getName(),
                archive.toString(),
                delta.toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        int exit = process.waitFor();
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        out.put("jvmOptions", heap);
        out.put("exitCode", exit);
        out.put("succeeded", exit == 0);
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
        if (exit == 0 && last.startsWith("{")) {
            out.set("child", ArchiveJson.mapper().readTree(last));
        } else {
            out.put("outputTail", String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
        }
    }
}
