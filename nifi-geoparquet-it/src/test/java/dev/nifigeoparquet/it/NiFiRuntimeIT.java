package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The NAR in a real NiFi: it loads on the oldest runtime the suite assembles (its parent NAR resolved to that
 * runtime's own), NiFi lists every component of the bundle and the standard processors the flow definitions use, and
 * every flow definition imports with every component resolved: no ghost.
 */
@ExtendWith(NiFiExtension.class)
class NiFiRuntimeIT {

    static final String BUNDLE_GROUP = "dev.nifigeoparquet";

    /** The parameter context with the archive's parameters, which every flow definition's own context inherits. */
    static final String ARCHIVE_CONTEXT = "GeoParquet archive";

    static final Set<String> PROCESSORS = Set.of(
            "dev.nifigeoparquet.processors.RouteByH3Cell",
            "dev.nifigeoparquet.processors.UpsertGeoParquetPartition",
            "dev.nifigeoparquet.processors.CompactGeoParquetPartition",
            "dev.nifigeoparquet.processors.VerifyGeoMetadata");
    static final Set<String> SERVICES = Set.of(
            "dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService",
            "dev.nifigeoparquet.processors.geoparquet.GeoParquetReader",
            "dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordSetWriter");

    /**
     * The NAR of NiFi's standard processors the build packs for the suite (module nifi-geoparquet-it-standard-nar),
     * since NiFi's nifi-standard-nar is not among the artifacts it can fetch.
     */
    static final String STANDARD_NAR_GROUP = "dev.nifigeoparquet.it";

    static final String STANDARD_NAR = "nifi-geoparquet-it-standard-nar";

    /** The standard processors the flow definitions use. */
    static final Set<String> STANDARD_PROCESSORS = Set.of(
            "org.apache.nifi.processors.standard.ListFile",
            "org.apache.nifi.processors.standard.FetchFile",
            "org.apache.nifi.processors.standard.PutFile");

    @Test
    void theNarLoadsOnTheRuntimeAndNiFiListsEveryComponent(RunningNiFi nifi) throws Exception {
        requireRuntimeListsEveryComponent(nifi.api());
        String log = Files.readString(nifi.appLog());
        assertTrue(
                log.contains("unable to locate exact NAR dependency 'org.apache.nifi:nifi-standard-shared-nar:")
                        && log.contains("Only found one possible match 'org.apache.nifi:nifi-standard-shared-nar:"
                                + NiFiExtension.required("nifi.runtime.version") + "'"),
                "the NAR's parent, nifi-aws-service-api-nar (built for a newer NiFi), resolves its own parent to the"
                        + " runtime's standard shared NAR");
        requireNoLinkageProblems(nifi.appLog());
    }

    /**
     * Every flow definition imports as shipped with every component resolved, and the flows imported side by side share
     * one archive context: NiFi binds each import to the context of that name the first one created, so an operator sets
     * the archive's parameters once.
     */
    @Test
    void everyFlowDefinitionImportsWithEveryComponentResolvedAndTheFlowsShareTheArchiveContext(RunningNiFi nifi)
            throws Exception {
        Set<String> archiveContexts = new TreeSet<>();
        for (Path definition : flowDefinitions()) {
            FlowGroup group =
                    FlowGroup.uploadAsShipped(nifi.api(), definition, "import check " + definition.getFileName());
            requireNoGhosts(group, definition);
            JsonNode context = nifi.api()
                    .get("parameter-contexts/" + group.parameterContextId())
                    .path("component");
            List<String> inherited = new ArrayList<>();
            context.path("inheritedParameterContexts")
                    .forEach(parent ->
                            inherited.add(parent.path("component").path("name").asText()));
            assertEquals(List.of(ARCHIVE_CONTEXT), inherited, definition + ": its context inherits the archive's");
            context.path("inheritedParameterContexts")
                    .forEach(parent -> archiveContexts.add(parent.path("id").asText()));
        }
        assertEquals(1, archiveContexts.size(), "one archive context for every flow: " + archiveContexts);
    }

    /**
     * NiFi runs the runtime's release, lists exactly this bundle's processors and services under its group, and lists
     * the standard processors the flow definitions use, from the standard NAR the build packs.
     */
    static void requireRuntimeListsEveryComponent(NiFiApi api) throws IOException, InterruptedException {
        JsonNode about = api.get("flow/about").path("about");
        assertEquals(
                NiFiExtension.required("nifi.runtime.version"),
                about.path("version").asText(),
                "the NiFi that runs: " + about);

        JsonNode processorTypes = api.get("flow/processor-types").path("processorTypes");
        assertEquals(PROCESSORS, ours(processorTypes));
        assertEquals(SERVICES, ours(api.get("flow/controller-service-types").path("controllerServiceTypes")));

        Map<String, String> standard = new TreeMap<>();
        for (JsonNode type : processorTypes) {
            if (STANDARD_PROCESSORS.contains(type.path("type").asText())) {
                JsonNode bundle = type.path("bundle");
                standard.put(
                        type.path("type").asText(),
                        bundle.path("group").asText() + ":"
                                + bundle.path("artifact").asText() + ":"
                                + bundle.path("version").asText());
            }
        }
        String standardBundle =
                STANDARD_NAR_GROUP + ":" + STANDARD_NAR + ":" + NiFiExtension.required("project.version");
        Map<String, String> expected = new TreeMap<>();
        STANDARD_PROCESSORS.forEach(type -> expected.put(type, standardBundle));
        assertEquals(expected, standard, "ListFile, FetchFile and PutFile are available, each once");
    }

    /** Nothing in NiFi's log says that a class of a NAR failed to link against another's. */
    static void requireNoLinkageProblems(Path appLog) throws IOException {
        String log = Files.readString(appLog);
        for (String linkageProblem : new String[] {
            "NoClassDefFoundError",
            "NoSuchMethodError",
            "NoSuchFieldError",
            "AbstractMethodError",
            "IncompatibleClassChangeError",
            "LinkageError",
            "ClassNotFoundException: dev.nifigeoparquet",
            "ClassNotFoundException: org.apache.nifi"
        }) {
            assertFalse(log.contains(linkageProblem), "NiFi's log at " + appLog + " shows " + linkageProblem);
        }
    }

    /**
     * Uploads {@code definition} as a group named {@code groupName} and checks that every processor and controller
     * service resolved to a loaded bundle (no ghost): this bundle's to the NAR under test, ListFile, FetchFile and PutFile
     * to the standard NAR the build packs, the others to the runtime's own NARs. Returns the group.
     */
    static FlowGroup requireImportsWithoutGhosts(NiFiApi api, Path definition, String groupName)
            throws IOException, InterruptedException {
        FlowGroup group = FlowGroup.upload(api, definition, groupName);
        requireNoGhosts(group, definition);
        return group;
    }

    /** Every processor and controller service of an imported group resolved to a loaded bundle (see above). */
    static void requireNoGhosts(FlowGroup group, Path definition) throws IOException, InterruptedException {
        List<JsonNode> components = new ArrayList<>();
        group.processors().forEach(processor -> components.add(processor.path("component")));
        group.services().forEach(service -> components.add(service.path("component")));
        int ours = 0;
        int standard = 0;
        for (JsonNode component : components) {
            String name =
                    definition.getFileName() + ": " + component.path("name").asText() + " ("
                            + component.path("type").asText() + ")";
            JsonNode bundle = component.path("bundle");
            assertFalse(component.path("extensionMissing").asBoolean(), name + " imported as a ghost: " + bundle);
            if (BUNDLE_GROUP.equals(bundle.path("group").asText())) {
                assertEquals(
                        NiFiExtension.required("project.version"),
                        bundle.path("version").asText(),
                        name);
                ours++;
            } else if (STANDARD_PROCESSORS.contains(component.path("type").asText())) {
                assertEquals(
                        STANDARD_NAR_GROUP + ":" + STANDARD_NAR,
                        bundle.path("group").asText() + ":"
                                + bundle.path("artifact").asText(),
                        name);
                standard++;
            } else {
                assertEquals(
                        NiFiExtension.required("nifi.runtime.version"),
                        bundle.path("version").asText(),
                        name + " resolves to the runtime's own NAR");
            }
        }
        assertTrue(ours >= 3, definition + " holds this bundle's components");
        assertTrue(standard >= 1, definition + " holds standard processors");
    }

    private static Set<String> ours(JsonNode types) {
        Set<String> names = new TreeSet<>();
        for (JsonNode type : types) {
            if (BUNDLE_GROUP.equals(type.path("bundle").path("group").asText())) {
                names.add(type.path("type").asText());
            }
        }
        return names;
    }

    static List<Path> flowDefinitions() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(NiFiExtension.required("flow.definitions")))) {
            return files.filter(file -> file.toString().endsWith(".json"))
                    .sorted()
                    .toList();
        }
    }

    static Path flowDefinition(String fileName) throws IOException {
        Path file = Path.of(NiFiExtension.required("flow.definitions"), fileName);
        if (!Files.isRegularFile(file)) {
            throw new IOException("No flow definition " + file);
        }
        return file;
    }
}
