package dev.nifigeoparquet.it;

import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One imported copy of {@code templates/incremental-upsert.json} with its own archive (a copy of a GeoPandas-style
 * dataset, which the archive service adopts when enabled), intake and quarantine directories, each delta's sequence taken
 * from its file name ({@link Backlog}). Its processors' names are {@link IncrementalUpsertFlowIT}'s.
 */
final class UpsertFlow {

    final FlowGroup group;
    final FileIntake intake;
    final Path root;
    final Path quarantine;

    private UpsertFlow(FlowGroup group, FileIntake intake, Path root, Path quarantine) {
        this.group = group;
        this.intake = intake;
        this.root = root;
        this.quarantine = quarantine;
    }

    /** Imports the flow definition as group {@code name} over a copy of the dataset at {@code dataset}. */
    static UpsertFlow upload(NiFiApi api, Path dir, String name, Path dataset) throws Exception {
        Path home = Files.createDirectories(dir.resolve(name.replace(' ', '-')));
        Path root = home.resolve("archive");
        copyTree(dataset, root);
        FileIntake intake = FileIntake.under(home);
        Path quarantine = home.resolve("quarantine");
        FlowGroup group = FlowGroup.upload(api, NiFiRuntimeIT.flowDefinition("incremental-upsert.json"), name);
        Map<String, String> parameters = new HashMap<>(intake.parameters());
        parameters.put("archive.root", root.toString());
        parameters.put("archive.allowed.roots", home.toString());
        parameters.put("archive.key.columns", SyntheticParcels.KEY);
        parameters.put("h3.resolution", String.valueOf(Parcels.RESOLUTION));
        parameters.put("delta.geometry.field", SyntheticParcels.GEOMETRY);
        parameters.put("delta.delete.marker", NightlyDelta.DELETE_MARKER);
        parameters.put("delta.sequence", Backlog.SEQUENCE_FROM_NAME);
        parameters.put("quarantine.directory", quarantine.toString());
        parameters.put("reports.directory", home.resolve("reports").toString());
        group.setParameters(parameters);
        intake.prepare(group);
        FileIntake.requireValid(group, IncrementalUpsertFlowIT.QUARANTINE);
        return new UpsertFlow(group, intake, root, quarantine);
    }

    /**
     * Enables the group's services and waits until Upsert is valid on every node, asking again while a node has not
     * enabled them: a cluster reports a service enabled while one node still has it disabled.
     */
    void enableOnEveryNode() throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        while (true) {
            group.enableServices();
            Instant retry = Instant.now().plus(Duration.ofSeconds(20));
            while (Instant.now().isBefore(retry)) {
                List<FlowGroup.NodeActivity> nodes = group.activityByNode(IncrementalUpsertFlowIT.UPSERT);
                if (nodes.stream().allMatch(node -> node.runStatus().equals("Stopped"))) {
                    return;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("Upsert is not valid on every node: " + nodes);
                }
                Thread.sleep(250);
            }
        }
    }

    void startAll() throws IOException, InterruptedException {
        group.start(IncrementalUpsertFlowIT.ALL.toArray(String[]::new));
        group.startPorts();
    }

    /** Drops the night into the intake's input directory without waiting. */
    void drop(Backlog.Night night) throws IOException {
        Path written = root.resolveSibling(night.filename());
        Files.deleteIfExists(written); // a night delivered again
        intake.drop(night.filename(), Parcels.geoParquet(written, night.rows()));
    }

    /** Drops the night and waits until the flow has done all it can with it. */
    void send(Backlog.Night night) throws IOException, InterruptedException {
        drop(night);
        intake.awaitFetched(night.filename());
        group.awaitIdle(IncrementalUpsertFlowIT.DOWNSTREAM);
    }

    /** What the flow's PutFile wrote into the quarantine directory so far. */
    List<Written> quarantined() throws Exception {
        return Written.in(group, IncrementalUpsertFlowIT.QUARANTINE, quarantine);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }
}
