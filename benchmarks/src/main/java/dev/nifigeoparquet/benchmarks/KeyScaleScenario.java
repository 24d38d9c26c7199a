package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.WriteMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 9, twenty times the keys: the nightly delta applied to the guide's archive with its own key index, and to
 * the same archive whose index holds 20 times the keys. The added keys are synthetic: beside each parcel's key
 * ({@code parcel-<n>}) its index holds {@value #SYNTHETIC_PER_KEY} more ({@code parcel-<n>-s<j>}), which sort right
 * after it, so they are spread through every shard and every row group as the keys of a larger archive would be; they
 * point at a cell that never holds them, and their features do not exist. Each archive is applied to cold (freshly
 * opened, as the command line opens it) and warm (as the archive service keeps it): one unmeasured round, then
 * {@link LocalityScenario#ROUNDS} rounds interleaved in turn, each on a fresh copy whose DuckDB digest must equal the
 * first copy's. The cold run on the larger index runs again in a child JVM under {@link MemoryScenario#HEAP}, then
 * under {@link MemoryScenario#HEADROOM_HEAP}: the headroom.
 */
final class KeyScaleScenario {

    static final int SYNTHETIC_PER_KEY = 19;

    /** Keys the index is given per build: a map of them fits the benchmark's heap beside the shard merges. */
    private static final int KEYS_PER_BUILD = 1_000_000;

    enum Approach {
        COLD_GUIDE_KEYS("coldGuideKeys"),
        COLD_20X_KEYS("cold20xKeys"),
        WARM_GUIDE_KEYS("warmGuideKeys"),
        WARM_20X_KEYS("warm20xKeys");

        final String key;

        Approach(String key) {
            this.key = key;
        }

        boolean manyKeys() {
            return this == COLD_20X_KEYS || this == WARM_20X_KEYS;
        }

        boolean warm() {
            return this == WARM_GUIDE_KEYS || this == WARM_20X_KEYS;
        }
    }

    private KeyScaleScenario() {}

    static void run(NightlyDeltaScenario.Prepared prepared, Path work, ObjectNode out) throws Exception {
        Archives.deleteTree(work);
        Files.createDirectories(work);
        Path guide = prepared.archive().root;
        Path many = work.resolve("twenty-times-the-keys");
        Archives.linkCopy(guide, many);
        long realKeys = prepared.archive().rows;
        String cell = prepared.archive().cells.get(0);
        Probe.Timed<Void> build;
        try {
            build = Probe.measure(() -> addSyntheticKeys(Archives.open(many), realKeys, cell));
        } catch (OutOfMemoryError e) {
            // The larger index did not fit the benchmark's own heap: the other scenarios' results still stand.
            out.put("failed", "building the index of twenty times the keys: " + e);
            Archives.deleteTree(work);
            return;
        }
        out.put("guideKeys", realKeys);
        out.put("keys", realKeys * (1 + SYNTHETIC_PER_KEY));
        out.put("indexBuildSeconds", build.measurement().seconds());
        out.put("guideIndexBytes", indexBytes(guide));
        out.put("indexBytes", indexBytes(many));
        out.put("deltaFeatures", prepared.delta().changes().size());
        int cores = Runtime.getRuntime().availableProcessors();
        Map<Approach, List<Probe.Measurement>> runs = new EnumMap<>(Approach.class);
        try (DuckDb referee = new DuckDb()) {
            Rounds.Copies copies =
                    new Rounds.Copies(referee, realKeys + prepared.delta().expectedNetRows());
            for (int round = -1; round < LocalityScenario.ROUNDS; round++) {
                for (int k = 0; k < Approach.values().length; k++) {
                    Approach approach = Rounds.inTurn(Approach.values(), round, k);
                    Path root = work.resolve(approach.key);
                    Probe.Measurement measured = NightlyDeltaScenario.IncrementalRun.of(
                                    approach.manyKeys() ? many : guide,
                                    root,
                                    prepared.delta(),
                                    WriteMode.UPSERT,
                                    1,
                                    Delta.PARTITIONS_PER_RUN,
                                    cores,
                                    approach.warm())
                            .timed()
                            .measurement();
                    copies.check(root, true, round >= 0);
                    Archives.deleteTree(root);
                    if (round >= 0) {
                        runs.computeIfAbsent(approach, a -> new ArrayList<>()).add(measured);
                    }
                }
            }
            out.set("verification", copies.verification());
        }
        ObjectNode approaches = out.putObject("approaches");
        runs.forEach((approach, measured) -> {
            ObjectNode a = approaches.putObject(approach.key);
            Rounds.putWallSeconds(
                    a, measured.stream().map(Probe.Measurement::seconds).toList());
            Probe.Measurement median = Probe.median(measured, Probe.Measurement::seconds);
            a.put("medianRunCpuSeconds", median.cpuSeconds());
            a.put("medianRunHeapPeakBytes", median.heapPeakBytes());
        });
        ObjectNode ratios = out.putObject("ratios");
        ratios.put("cold20xOverGuideKeys", seconds(approaches, "cold20xKeys") / seconds(approaches, "coldGuideKeys"));
        ratios.put("warm20xOverGuideKeys", seconds(approaches, "warm20xKeys") / seconds(approaches, "warmGuideKeys"));
        for (String heap : List.of(MemoryScenario.HEAP, MemoryScenario.HEADROOM_HEAP)) {
            Path underHeap = work.resolve("under-heap" + heap);
            Archives.linkCopy(many, underHeap);
            MemoryScenario.child(
                    underHeap,
                    prepared.deltaFile(),
                    heap,
                    work.resolve("under-heap" + heap + ".log"),
                    out.putObject(
                            heap.equals(MemoryScenario.HEAP)
                                    ? "cold20xKeysUnderHeap"
                                    : "cold20xKeysUnderHeadroomHeap"));
        }
        Archives.deleteTree(work);
    }

    private static double seconds(ObjectNode approaches, String approach) {
        return approaches.path(approach).path("medianWallSeconds").asDouble();
    }

    /**
     * Records {@value #SYNTHETIC_PER_KEY} synthetic keys beside each of the archive's {@code realKeys} parcel keys, in
     * builds of about {@value #KEYS_PER_BUILD} keys, as adoption records an archive's keys.
     */
    private static Void addSyntheticKeys(GeoParquetArchive archive, long realKeys, String cell) throws Exception {
        KeyIndex index = new KeyIndex(archive);
        Map<FeatureKey, String> batch = new HashMap<>();
        for (int j = 1; j <= SYNTHETIC_PER_KEY; j++) {
            for (long n = 0; n < realKeys; n++) {
                batch.put(FeatureKey.fromIndexText(ParcelWorld.id(n) + "-s" + j, 1), cell);
                if (batch.size() == KEYS_PER_BUILD) {
                    index.build(batch);
                    batch.clear();
                }
            }
        }
        index.build(batch);
        return null;
    }

    private static long indexBytes(Path root) throws Exception {
        String index = ArchiveLayout.INDEX_DIRECTORY + "/";
        return Archives.snapshot(root).entrySet().stream()
                .filter(e -> e.getKey().startsWith(index))
                .mapToLong(e -> e.getValue().size())
                .sum();
    }
}
