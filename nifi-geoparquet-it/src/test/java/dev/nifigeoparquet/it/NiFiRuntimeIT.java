package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The NAR in a real NiFi: it loads on the oldest runtime the suite assembles (its parent NAR resolved to that
 * runtime's own), NiFi lists every component of the bundle, and every flow definition imports with this bundle's
 * components resolved.
 */
@ExtendWith(NiFiExtension.class)
class NiFiRuntimeIT {

    static final String BUNDLE_GROUP = "dev.nifigeoparquet";
    static final Set<String> PROCESSORS = Set.of(
            "dev.nifigeoparquet.processors.RouteByH3Cell",
            "dev.nifigeoparquet.processors.UpsertGeoParquetPartition",
            "dev.nifigeoparquet.processors.CompactGeoParquetPartition",
            "dev.nifigeoparquet.processors.VerifyGeoMetadata");
    static final Set<String> SERVICES = Set.of(
            "dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService",
            "dev.nifigeoparquet.processors.geoparquet.GeoParquetReader",
            "dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordSetWriter");

    @Test
    void theNarLoadsOnTheRuntimeAndNiFiListsEveryComponent(RunningNiFi nifi) throws Exception {
        JsonNode about = nifi.api().get("flow/about").path("about");
        assertEquals(
                NiFiExtension.required("nifi.runtime.version"),
                about.path("version").asText(),
                "the NiFi that runs: " + about);

        assertEquals(PROCESSORS, ours(nifi.api().get("flow/processor-types").path("processorTypes")));
        assertEquals(
                SERVICES, ours(nifi.api().get("flow/controller-service-types").path("controllerServiceTypes")));

        String log = Files.readString(nifi.appLog());
        assertTrue(
                log.contains("unable to locate exact NAR dependency 'org.apache.nifi:nifi-standard-services-api-nar:")
                        && log.contains("Only found one possible match 'org.apache.nifi:nifi-standard-services-api-nar:"
                                + NiFiExtension.required("nifi.runtime.version") + "'"),
                "the NAR's parent (built for a newer NiFi) resolves to the runtime's own standard services API NAR");
        for (String linkageProblem : new String[] {
            "NoClassDefFoundError",
            "NoSuchMethodError",
            "NoSuchFieldError",
            "AbstractMethodError",
            "IncompatibleClassChangeError",
            "ClassNotFoundException: dev.nifigeoparquet"
        }) {
            assertFalse(log.contains(linkageProblem), "NiFi's log shows " + linkageProblem);
        }
    }

    @Test
    void everyFlowDefinitionImportsWithTheBundlesComponentsResolved(RunningNiFi nifi) throws Exception {
        Path templates = Path.of(NiFiExtension.required("flow.definitions"));
        try (Stream<Path> files = Files.list(templates)) {
            for (Path definition : files.filter(file -> file.toString().endsWith(".json"))
                    .sorted()
                    .toList()) {
                FlowGroup group = FlowGroup.upload(nifi.api(), definition, "import check " + definition.getFileName());
                int ours = 0;
                for (JsonNode processor : group.processors()) {
                    ours += requireResolvedIfOurs(definition, processor.path("component"));
                }
                for (JsonNode service : group.services()) {
                    ours += requireResolvedIfOurs(definition, service.path("component"));
                }
                assertTrue(ours >= 3, definition + " holds this bundle's components");
            }
        }
    }

    /** 1 when the component is this bundle's and NiFi resolved it to the loaded NAR, 0 for another bundle's. */
    private static int requireResolvedIfOurs(Path definition, JsonNode component) {
        if (!BUNDLE_GROUP.equals(component.path("bundle").path("group").asText())) {
            return 0;
        }
        String name = definition.getFileName() + ": " + component.path("name").asText();
        assertFalse(component.path("extensionMissing").asBoolean(), name + " imported as a ghost");
        assertEquals(
                NiFiExtension.required("project.version"),
                component.path("bundle").path("version").asText(),
                name);
        return 1;
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

    static Path flowDefinition(String fileName) throws IOException {
        Path file = Path.of(NiFiExtension.required("flow.definitions"), fileName);
        if (!Files.isRegularFile(file)) {
            throw new IOException("No flow definition " + file);
        }
        return file;
    }
}
