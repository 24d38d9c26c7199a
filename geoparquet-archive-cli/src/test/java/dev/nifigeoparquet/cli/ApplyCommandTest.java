package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code init} from a template, then {@code apply} of GeoParquet and GeoJSON deltas, checked by DuckDB. */
class ApplyCommandTest {

    @TempDir
    Path temp;

    Path archive;
    List<Group> baseline;

    @BeforeEach
    void createArchiveWithBaseline() throws Exception {
        archive = temp.resolve("parcels");
        Parcels.initKeyed(archive, temp, "--version-column", SyntheticParcels.VERSION, "--h3-resolution", 4);
        baseline = Parcels.generate(7, 0, 2000);
        Path delta = Parcels.write(temp.resolve("baseline.parquet"), SyntheticParcels.schema(), baseline);
        Cli.Result result = Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", delta)
                .expect(0);
        assertTrue(result.out().contains("inserted:           2000"), result.out());
        assertTrue(result.err().contains("routed 2,000 rows"), "progress on stderr: " + result.err());
    }

    @Test
    void appendsAGeoParquetDeltaRoutedByCell() {
        Map<String, Double> expected = new TreeMap<>();
        baseline.forEach(row -> expected.put(Parcels.key(row), row.getDouble("area_m2", 0)));
        assertEquals(expected, Parcels.areas(archive), "DuckDB reads back every appended parcel once");
        long partitions = Parcels.count(archive) == 0
                ? 0
                : DuckDb.query(
                                "SELECT count(DISTINCT h3_cell) FROM read_parquet(?, hive_partitioning = true)",
                                archive + "/*/*.parquet")
                        .stream()
                        .mapToLong(row -> ((Number) row.get(0)).longValue())
                        .sum();
        assertTrue(partitions > 2, "the clustered parcels spread over several partitions, got " + partitions);
    }

    @Test
    void upsertsAGeoParquetDeltaWithDeletionsAndAReplayChangesNothing() throws Exception {
        List<Group> rows = new ArrayList<>();
        Map<String, Double> expected = new TreeMap<>();
        baseline.forEach(row -> expected.put(Parcels.key(row), row.getDouble("area_m2", 0)));
        for (int i = 0; i < 100; i++) { // edits
            Group parcel = baseline.get(i * 7);
            rows.add(Parcels.deltaRow(parcel, 1000 + i, false));
            expected.put(Parcels.key(parcel), 1000.0 + i);
        }
        for (int i = 0; i < 40; i++) { // deletions
            Group parcel = baseline.get(i * 11 + 3);
            rows.add(Parcels.deltaRow(parcel, 0, true));
            expected.remove(Parcels.key(parcel));
        }
        for (Group parcel : Parcels.generate(8, 5000, 5060)) { // new parcels
            rows.add(Parcels.deltaRow(parcel, parcel.getDouble("area_m2", 0), false));
            expected.put(Parcels.key(parcel), parcel.getDouble("area_m2", 0));
        }
        Path delta = Parcels.write(temp.resolve("nightly.parquet"), NightlyDelta.schema(), rows);

        Cli.Result result = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        delta,
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--quiet")
                .expect(0);
        assertEquals("", result.err(), "--quiet prints nothing on stderr");
        assertEquals(expected, Parcels.areas(archive), "edits applied, deletions gone, new parcels added");
        assertTrue(result.out().contains("rows net:           +" + (60 - 40)), result.out());

        Cli.Result replay = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        delta,
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--threads",
                        1,
                        "--quiet")
                .expect(0);
        assertTrue(replay.out().contains("rows net:           +0"), replay.out());
        assertEquals(expected, Parcels.areas(archive), "a replayed delta changes nothing");
        Cli.run("verify", "--archive", archive, "--expect-count", expected.size())
                .expect(0);
    }

    @Test
    void appendRefusesARowMarkedForDeletionWithOrWithoutAGeometry() throws Exception {
        Group doomed = baseline.get(5);
        for (String geometry : new String[] {"null", Parcels.geoJsonGeometry(doomed)}) {
            Group added = Parcels.generate(9, 7000, 7001).get(0);
            StringBuilder features = new StringBuilder();
            feature(
                    features,
                    Parcels.key(added),
                    "{\"land_use\":\"forest\",\"area_m2\":10,\"updated_at\":\"2026-01-02T00:00:00Z\"}",
                    Parcels.geoJsonGeometry(added));
            feature(features, Parcels.key(doomed), "{\"deleted\":true}", geometry);
            Path geojson = Files.writeString(
                    temp.resolve("append-with-deletion.geojson"),
                    "{\"type\":\"FeatureCollection\",\"features\":[" + features + "]}");
            Map<String, Double> before = Parcels.areas(archive);

            String reason = Cli.run(
                            "apply",
                            "--archive",
                            archive,
                            "--mode",
                            "append",
                            "--delta",
                            geojson,
                            "--delete-field",
                            "deleted",
                            "-q")
                    .expect(2)
                    .reason();

            assertTrue(
                    reason.contains("(key " + Parcels.key(doomed) + "): marked for deletion, which Append cannot do"),
                    "geometry " + geometry + ": " + reason);
            assertEquals(before, Parcels.areas(archive), "nothing was written, nothing deleted");
        }
    }

    @Test
    void threadsMustBeAtLeastOne() throws Exception {
        Path delta =
                Parcels.write(temp.resolve("more.parquet"), SyntheticParcels.schema(), Parcels.generate(3, 9000, 9010));
        String reason = Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", delta, "--threads", 0)
                .expect(2)
                .reason();
        assertTrue(reason.contains("--threads must be at least 1"), reason);
        Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", delta, "--threads", 2, "-q")
                .expect(0);
        assertEquals(2010, Parcels.count(archive));
    }

    @Test
    void upsertsAGeoJsonFeatureCollection() throws Exception {
        Map<String, Double> expected = new TreeMap<>();
        baseline.forEach(row -> expected.put(Parcels.key(row), row.getDouble("area_m2", 0)));
        StringBuilder features = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            Group parcel = baseline.get(i * 13);
            feature(
                    features,
                    Parcels.key(parcel),
                    "{\"land_use\":\"forest\",\"area_m2\":" + (500 + i) + ",\"updated_at\":\"2026-01-02T00:00:00Z\"}",
                    Parcels.geoJsonGeometry(parcel));
            expected.put(Parcels.key(parcel), 500.0 + i);
        }
        for (Group parcel : Parcels.generate(9, 7000, 7010)) {
            feature(
                    features,
                    Parcels.key(parcel),
                    "{\"land_use\":\"residential\",\"area_m2\":42.5,\"updated_at\":\"2026-01-02T00:00:00Z\"}",
                    Parcels.geoJsonGeometry(parcel));
            expected.put(Parcels.key(parcel), 42.5);
        }
        Group gone = baseline.get(5);
        feature(features, Parcels.key(gone), "{\"deleted\":true}", "null");
        expected.remove(Parcels.key(gone));
        Path geojson = temp.resolve("delta.geojson");
        Files.writeString(geojson, "{\"type\":\"FeatureCollection\",\"features\":[" + features + "]}");

        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        geojson,
                        "--delete-field",
                        "deleted",
                        "-q")
                .expect(0);
        assertEquals(expected, Parcels.areas(archive), "GeoJSON edits, additions and the deletion all applied");
        List<List<Object>> landUse = DuckDb.query(
                "SELECT land_use, epoch_us(updated_at) FROM read_parquet(?, hive_partitioning = true) WHERE parcel_id = ?",
                archive + "/*/*.parquet",
                Parcels.key(baseline.get(13)));
        assertEquals("forest", landUse.get(0).get(0));
        assertEquals(
                ChronoUnit.MICROS.between(Instant.EPOCH, Parcels.T1),
                ((Number) landUse.get(0).get(1)).longValue());
    }

    @Test
    void deletesByKeyWithADeleteModeDelta() throws Exception {
        List<Group> doomed = baseline.subList(100, 150);
        Path delta = Parcels.write(temp.resolve("delete.parquet"), SyntheticParcels.schema(), doomed);
        Cli.run("apply", "--archive", archive, "--mode", "delete", "--delta", delta, "-q")
                .expect(0);
        Map<String, Double> areas = Parcels.areas(archive);
        assertEquals(baseline.size() - doomed.size(), areas.size());
        doomed.forEach(row -> assertTrue(!areas.containsKey(Parcels.key(row)), Parcels.key(row)));
    }

    @Test
    void refusesABadGeoJsonDeltaWithOneLineAndWritesNothing() throws Exception {
        Path geojson = temp.resolve("bad.geojson");
        Group parcel = baseline.get(0);
        Files.writeString(
                geojson,
                "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"x-1\","
                        + "\"properties\":{\"area_m2\":1,\"updated_at\":\"2026-01-02T00:00:00Z\",\"colour\":\"red\"},\"geometry\":"
                        + Parcels.geoJsonGeometry(parcel) + "}]}");
        String reason = Cli.run("apply", "--archive", archive, "--mode", "upsert", "--delta", geojson, "-q")
                .expect(2)
                .reason();
        assertTrue(
                reason.startsWith("geoparquet-archive apply: ")
                        && reason.contains("colour")
                        && reason.contains("feature 0"),
                reason);
        assertEquals(baseline.size(), Parcels.count(archive), "nothing was written");

        String notJson = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "append",
                        "--delta",
                        Files.writeString(temp.resolve("x.json"), "[1,2]"),
                        "-q")
                .expect(2)
                .reason();
        assertTrue(notJson.contains("FeatureCollection"), notJson);
        String missing = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "append",
                        "--delta",
                        temp.resolve("absent.parquet"),
                        "-q")
                .expect(2)
                .reason();
        assertTrue(missing.contains("absent.parquet") && missing.contains("does not exist"), missing);
        String notParquet = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "append",
                        "--delta",
                        Files.writeString(temp.resolve("y.parquet"), "nope"),
                        "-q")
                .expect(2)
                .reason();
        assertTrue(notParquet.contains("not a readable Parquet file"), notParquet);
    }

    private static void feature(StringBuilder features, String id, String properties, String geometry) {
        if (!features.isEmpty()) {
            features.append(',');
        }
        features.append("{\"type\":\"Feature\",\"id\":\"")
                .append(id)
                .append("\",\"properties\":")
                .append(properties)
                .append(",\"geometry\":")
                .append(geometry)
                .append('}');
    }
}
