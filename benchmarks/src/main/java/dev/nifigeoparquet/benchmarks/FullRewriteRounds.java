package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario 1's full rewrites, run in the rounds of the engine's variants as every other approach is: the naive
 * row-API rewrite, and DuckDB's {@code COPY ... PARTITION_BY} on one thread and on every core. One unmeasured run of
 * each comes first; the naive one's output is the reference every measured output's digest must equal. The last
 * round's outputs stay for the scenario's reconciliation with the engine; the others are deleted once checked.
 */
final class FullRewriteRounds {

    private final NightlyDeltaScenario.Prepared prepared;
    private final Path work;
    private final DuckDb duck;
    private final FooterEntries canonicalFooter;
    private final String duckThreads;
    private final int lastRound;
    private final Rounds.Copies copies;
    private final List<Probe.Timed<NaiveFullRewrite.Result>> naive = new ArrayList<>();
    private final List<ObjectNode> duckOneThread = new ArrayList<>();
    private final List<ObjectNode> duckAllThreads = new ArrayList<>();

    FullRewriteRounds(
            NightlyDeltaScenario.Prepared prepared, Path work, DuckDb duck, FooterEntries canonicalFooter, int rounds)
            throws Exception {
        this.prepared = prepared;
        this.work = work;
        this.duck = duck;
        this.canonicalFooter = canonicalFooter;
        this.lastRound = rounds - 1;
        duck.execute("SET enable_geoparquet_conversion = false");
        this.duckThreads = String.valueOf(
                duck.query("SELECT current_setting('threads')").get(0).get(0));
        this.copies = new Rounds.Copies(
                duck, prepared.archive().rows + prepared.delta().expectedNetRows());
    }

    /** Where the last measured naive rewrite's output stays. */
    Path naiveOut() {
        return work.resolve("full-naive");
    }

    /** Where the last measured DuckDB rewrite on every core leaves its output. */
    Path duckOut() {
        return work.resolve("full-duckdb");
    }

    /** One run of each, unmeasured: the warm-up every approach gets, and the reference output. */
    void warmUp() throws Exception {
        runNaive(false, true);
        runDuckDb(1, false, true);
        runDuckDb(Integer.parseInt(duckThreads), false, true);
    }

    /** The naive rewrite's measured run of a round. */
    void naive(int round) throws Exception {
        naive.add(runNaive(round == lastRound, false));
    }

    /** DuckDB's rewrite on one thread, measured, in a round. */
    void duckDbOneThread(int round) throws Exception {
        duckOneThread.add(runDuckDb(1, false, false));
    }

    /** DuckDB's rewrite on every core (its default), measured, in a round; the last round's output stays. */
    void duckDbAllThreads(int round) throws Exception {
        duckAllThreads.add(runDuckDb(Integer.parseInt(duckThreads), round == lastRound, false));
    }

    private Probe.Timed<NaiveFullRewrite.Result> runNaive(boolean keep, boolean reference) throws Exception {
        Path out = keep ? naiveOut() : work.resolve("full-naive-checked");
        Archives.deleteTree(out);
        var timed = Probe.measure(() -> NaiveFullRewrite.run(
                prepared.archive().root,
                prepared.delta(),
                out,
                RowModel.current().schema(),
                canonicalFooter,
                WriterSettings.defaults()));
        check(out, keep, reference);
        return timed;
    }

    private ObjectNode runDuckDb(int threads, boolean keep, boolean reference) throws Exception {
        Path out = keep ? duckOut() : work.resolve("full-duckdb-checked");
        Archives.deleteTree(out);
        duck.execute("SET threads = " + threads);
        String sql = NightlyDeltaScenario.fullRewriteSql(prepared.archive().root, prepared.deltaFile(), out);
        var run = Probe.measure(() -> {
            duck.execute(sql);
            return null;
        });
        ObjectNode approach = NightlyDeltaScenario.approach(
                run.measurement(),
                prepared.archiveBytes(),
                Archives.dataBytes(out),
                0,
                0,
                Archives.dataFiles(out),
                Archives.dataFiles(prepared.archive().root),
                NightlyDeltaScenario.partitionDirectories(out));
        approach.put("threads", threads);
        approach.put("version", duck.version());
        approach.put("sql", sql);
        approach.put("geoMetadataInOutput", duck.geoOfADataFile(out));
        check(out, keep, reference);
        return approach;
    }

    private void check(Path out, boolean keep, boolean reference) throws Exception {
        copies.check(out, reference, !reference);
        if (!keep) {
            Archives.deleteTree(out);
        }
    }

    /** The naive rewrite's run of median wall time, with every run's wall seconds. */
    Probe.Timed<NaiveFullRewrite.Result> naiveMedian() {
        return Probe.median(naive, timed -> timed.measurement().seconds());
    }

    List<Double> naiveSeconds() {
        return naive.stream().map(timed -> timed.measurement().seconds()).toList();
    }

    /** DuckDB's rewrite on every core, its run of median wall time, with every run's wall seconds. */
    ObjectNode duckDbAllThreads() {
        return medianOf(duckAllThreads);
    }

    ObjectNode duckDbOneThread() {
        return medianOf(duckOneThread);
    }

    private static ObjectNode medianOf(List<ObjectNode> runs) {
        ObjectNode median =
                Probe.median(runs, run -> run.get("wallSeconds").asDouble()).deepCopy();
        Rounds.putWallSeconds(
                median,
                runs.stream().map(run -> run.get("wallSeconds").asDouble()).toList());
        return median;
    }

    /** The reference's counts and every measured output's digest check. */
    Rounds.Copies copies() {
        return copies;
    }
}
