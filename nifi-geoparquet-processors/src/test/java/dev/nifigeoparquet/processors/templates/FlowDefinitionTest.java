package dev.nifigeoparquet.processors.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.processors.service.ArchiveStorageType;
import dev.nifigeoparquet.processors.testing.JsonRecordReaderService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import dev.nifigeoparquet.processors.testing.S3Archives;
import dev.nifigeoparquet.services.GeoParquetArchiveService;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.nifi.annotation.behavior.InputRequirement;
import org.apache.nifi.components.AllowableValue;
import org.apache.nifi.components.ConfigurableComponent;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.controller.ControllerService;
import org.apache.nifi.flow.Bundle;
import org.apache.nifi.flow.ConnectableComponent;
import org.apache.nifi.flow.ConnectableComponentType;
import org.apache.nifi.flow.ControllerServiceAPI;
import org.apache.nifi.flow.VersionedConfigurableExtension;
import org.apache.nifi.flow.VersionedConnection;
import org.apache.nifi.flow.VersionedControllerService;
import org.apache.nifi.flow.VersionedParameter;
import org.apache.nifi.flow.VersionedParameterContext;
import org.apache.nifi.flow.VersionedProcessor;
import org.apache.nifi.flow.VersionedPropertyDescriptor;
import org.apache.nifi.processor.Processor;
import org.apache.nifi.processor.Relationship;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every flow definition in {@code templates/}: it is a {@code RegisteredFlowSnapshot}; its components name real
 * properties with valid values; every relationship goes somewhere; every controller service and parameter it refers to
 * exists. Components of this bundle are instantiated and validated with TestRunners; standard NiFi components are
 * checked against their NiFi 2.8.0 definitions ({@link StandardComponents}).
 */
class FlowDefinitionTest {

    static final List<String> FILES = FlowDefinitions.FILES;

    static final String ARCHIVE_SERVICE_API = "dev.nifigeoparquet.services.GeoParquetArchiveService";
    static final String ARCHIVE_SERVICE_TYPE = "dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService";

    /** The S3 parameters every flow carries, and the archive service property each one sets. */
    static final Map<String, String> S3_PARAMETERS = new LinkedHashMap<>();

    static {
        S3_PARAMETERS.put("s3.endpoint", "S3 Endpoint Override URL");
        S3_PARAMETERS.put("s3.region", "S3 Region");
        S3_PARAMETERS.put("s3.storage.class", "S3 Storage Class");
        S3_PARAMETERS.put("s3.minimum.object.age", "S3 Minimum Object Age");
        S3_PARAMETERS.put("s3.part.size", "S3 Multipart Part Size");
        S3_PARAMETERS.put("s3.authentication.strategy", "S3 Authentication Strategy");
        S3_PARAMETERS.put("s3.access.key.id", "S3 Access Key ID");
        S3_PARAMETERS.put("s3.secret.access.key", "S3 Secret Access Key");
        S3_PARAMETERS.put("s3.session.token", "S3 Session Token");
    }

    static final Set<String> CREDENTIALS = Set.of("s3.access.key.id", "s3.secret.access.key", "s3.session.token");

    /** Optional settings shipped without a value, so the property stays unset (NiFi does not substitute an empty string). */
    static final Set<String> SHIPPED_WITHOUT_VALUE = Set.of(
            "s3.endpoint",
            "s3.region",
            "s3.minimum.object.age",
            "s3.access.key.id",
            "s3.secret.access.key",
            "s3.session.token");

    @TempDir
    Path dir;

    /** The standard services a flow may use, replaced in TestRunners by stand-ins of the same API. */
    static final Map<String, Supplier<? extends ControllerService>> STAND_INS =
            Map.of("org.apache.nifi.json.JsonTreeReader", JsonRecordReaderService::new);

    /** The flow's parameters, with paths pointing at a temporary archive that matches the resolution and key. */
    static Map<String, String> testParameters(FlowDefinitions flow, Path dir, Path root) throws IOException {
        Map<String, String> parameters = new LinkedHashMap<>(flow.parameters());
        parameters.put("archive.root", root.toString());
        parameters.put("archive.allowed.roots", dir.toString());
        parameters.put("h3.resolution", String.valueOf(ParcelArchives.RESOLUTION));
        parameters.computeIfPresent("archive.key.columns", (name, value) -> "parcel_id");
        for (String name : List.of(
                "delta.input.directory", "delta.processed.directory", "quarantine.directory", "reports.directory")) {
            if (parameters.containsKey(name)) {
                parameters.put(name, Files.createDirectories(dir.resolve(name)).toString());
            }
        }
        return parameters;
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void deserialisesIntoARegisteredFlowSnapshotWithItsParameterContext(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        assertEquals("1.0", flow.snapshot.getFlowEncodingVersion());
        assertNotNull(flow.group().getName());
        assertNotNull(flow.parameterContext(), file + " names a parameter context it does not carry");
        assertFalse(flow.processors().isEmpty());
        for (VersionedParameter parameter : allParameters(flow)) {
            assertEquals(
                    CREDENTIALS.contains(parameter.getName()),
                    parameter.isSensitive(),
                    parameter.getName() + ": only credentials are sensitive");
            assertEquals(
                    SHIPPED_WITHOUT_VALUE.contains(parameter.getName()),
                    parameter.getValue() == null,
                    parameter.getName()
                            + ": a value to start from, unless it is an optional S3 setting or a credential");
            assertFalse(
                    parameter.getDescription() == null
                            || parameter.getDescription().isBlank(),
                    parameter.getName() + " is described");
        }
        Set<String> identifiers = new HashSet<>();
        flow.groups().forEach(g -> assertTrue(identifiers.add(g.getIdentifier()), g.getName()));
        flow.processors().forEach(p -> assertTrue(identifiers.add(p.getIdentifier()), p.getName()));
        flow.ports().forEach(p -> assertTrue(identifiers.add(p.getIdentifier()), p.getName()));
        flow.services().forEach(s -> assertTrue(identifiers.add(s.getIdentifier()), s.getName()));
        flow.connections().forEach(c -> assertTrue(identifiers.add(c.getIdentifier()), c.getIdentifier()));
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void everyParameterReferencedExistsAndEveryParameterIsUsed(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        Set<String> referenced = new TreeSet<>();
        for (VersionedConfigurableExtension component : components(flow)) {
            component
                    .getProperties()
                    .values()
                    .forEach(value -> referenced.addAll(FlowDefinitions.referencedParameters(value)));
        }
        Set<String> defined = new TreeSet<>(flow.parameters().keySet());
        Set<String> undefined = new TreeSet<>(referenced);
        undefined.removeAll(defined);
        assertEquals(Set.of(), undefined, file + ": parameters referenced but not in the context");
        Set<String> unused = flow.parameterContext().getParameters().stream()
                .map(VersionedParameter::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        unused.removeAll(referenced);
        assertEquals(Set.of(), unused, file + ": parameters in the flow's own context that nothing uses");
    }

    /**
     * The archive's parameters live in one context that every flow inherits and carries identically, so NiFi, which binds
     * an imported flow to an existing context of the same name, asks for them once whichever flow is imported first.
     */
    @Test
    void everyFlowInheritsOneArchiveContextThatHoldsTheArchivesParametersAndEachIsUsed() throws Exception {
        Set<String> referencedByAnyFlow = new TreeSet<>();
        String shared = null;
        for (String file : FILES) {
            FlowDefinitions flow = FlowDefinitions.load(file);
            List<VersionedParameterContext> contexts = flow.parameterContexts();
            assertEquals(2, contexts.size(), file + ": its own context and the archive's");
            assertEquals(List.of(ARCHIVE_CONTEXT), contexts.getFirst().getInheritedParameterContexts(), file);
            assertEquals(contexts.size(), flow.snapshot.getParameterContexts().size(), file + ": no context unused");
            VersionedParameterContext archive = contexts.get(1);
            assertEquals(ARCHIVE_CONTEXT, archive.getName());
            Set<String> archiveParameters = names(archive);
            assertTrue(
                    archiveParameters.stream().allMatch(FlowDefinitionTest::isArchiveParameter),
                    file + ": the archive's context holds only archive.*, s3.* and h3.resolution: "
                            + archiveParameters);
            assertTrue(
                    names(contexts.getFirst()).stream().noneMatch(FlowDefinitionTest::isArchiveParameter),
                    file + ": the flow's own context repeats none of the archive's parameters");
            String serialized = FlowDefinitions.STRICT.writeValueAsString(archive);
            assertTrue(
                    shared == null || shared.equals(serialized),
                    file + " carries the archive's context as the others do");
            shared = serialized;
            for (VersionedConfigurableExtension component : components(flow)) {
                component
                        .getProperties()
                        .values()
                        .forEach(value -> referencedByAnyFlow.addAll(FlowDefinitions.referencedParameters(value)));
            }
        }
        Set<String> unused =
                names(FlowDefinitions.load(FILES.getFirst()).parameterContexts().get(1));
        unused.removeAll(referencedByAnyFlow);
        assertEquals(Set.of(), unused, "archive parameters no flow uses");
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void componentsNameTheirBundlesAndEveryPropertyTheyUseExists(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        for (VersionedConfigurableExtension component : components(flow)) {
            Bundle bundle = component.getBundle();
            if (FlowDefinitions.isThisBundlesType(component.getType())) {
                assertTrue(FlowDefinitions.isThisBundle(bundle), component.getName() + " names this bundle's NAR");
                assertTrue(
                        registeredExtensions().contains(component.getType()),
                        component.getType() + " is registered in META-INF/services");
                ConfigurableComponent instance = instantiate(component.getType());
                Set<String> supported = instance.getPropertyDescriptors().stream()
                        .map(PropertyDescriptor::getName)
                        .collect(Collectors.toSet());
                assertSubset(component, supported);
                for (Map.Entry<String, String> property :
                        component.getProperties().entrySet()) {
                    PropertyDescriptor descriptor = instance.getPropertyDescriptor(property.getKey());
                    assertAllowed(
                            component,
                            property.getKey(),
                            property.getValue(),
                            descriptor.getAllowableValues() == null
                                    ? null
                                    : descriptor.getAllowableValues().stream()
                                            .map(AllowableValue::getValue)
                                            .collect(Collectors.toSet()));
                    assertEquals(
                            descriptor.getControllerServiceDefinition() != null,
                            component
                                    .getPropertyDescriptors()
                                    .get(property.getKey())
                                    .getIdentifiesControllerService(),
                            component.getName() + " " + property.getKey() + ": identifiesControllerService");
                }
            } else {
                StandardComponents.Component standard = StandardComponents.of(component.getType())
                        .orElseThrow(() -> new AssertionError(
                                component.getType() + " is not among the standard NiFi 2.8.0 components checked"));
                assertEquals(
                        List.of(standard.group(), standard.artifact(), standard.version()),
                        List.of(bundle.getGroup(), bundle.getArtifact(), bundle.getVersion()),
                        component.getName() + " bundle");
                assertSubset(component, standard.properties());
                for (Map.Entry<String, String> property :
                        component.getProperties().entrySet()) {
                    assertAllowed(
                            component,
                            property.getKey(),
                            property.getValue(),
                            standard.allowableValues().get(property.getKey()));
                }
            }
            for (Map.Entry<String, VersionedPropertyDescriptor> descriptor :
                    component.getPropertyDescriptors().entrySet()) {
                assertEquals(descriptor.getKey(), descriptor.getValue().getName());
                boolean sensitive = FlowDefinitions.isThisBundlesType(component.getType())
                        && instantiate(component.getType())
                                .getPropertyDescriptor(descriptor.getKey())
                                .isSensitive();
                assertEquals(
                        sensitive,
                        descriptor.getValue().isSensitive(),
                        component.getName() + " " + descriptor.getKey() + " sensitive");
            }
        }
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void everyControllerServiceReferencedExistsWithTheApiThePropertyNeeds(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        assertTrue(flow.snapshot.getExternalControllerServices().isEmpty(), file + " brings every service it uses");
        Set<String> used = new HashSet<>();
        for (VersionedConfigurableExtension component : components(flow)) {
            for (Map.Entry<String, String> property : component.getProperties().entrySet()) {
                if (!component.getPropertyDescriptors().get(property.getKey()).getIdentifiesControllerService()) {
                    continue;
                }
                assertTrue(
                        flow.hasService(property.getValue()),
                        component.getName() + " " + property.getKey() + " refers to a service of the flow");
                VersionedControllerService service = flow.service(property.getValue());
                used.add(service.getIdentifier());
                Set<String> apis = service.getControllerServiceApis().stream()
                        .map(ControllerServiceAPI::getType)
                        .collect(Collectors.toSet());
                if (FlowDefinitions.isThisBundlesType(component.getType())) {
                    String needed = instantiate(component.getType())
                            .getPropertyDescriptor(property.getKey())
                            .getControllerServiceDefinition()
                            .getName();
                    assertTrue(
                            apis.contains(needed),
                            component.getName() + " " + property.getKey() + " needs " + needed + ", "
                                    + service.getName() + " offers " + apis);
                }
                if (FlowDefinitions.isThisBundlesType(service.getType())) {
                    for (String api : apis) {
                        assertTrue(
                                Class.forName(api).isAssignableFrom(Class.forName(service.getType())),
                                service.getType() + " implements " + api);
                    }
                } else {
                    assertEquals(
                            StandardComponents.of(service.getType())
                                    .orElseThrow()
                                    .controllerServiceApis(),
                            apis,
                            service.getName());
                }
                for (ControllerServiceAPI api : service.getControllerServiceApis()) {
                    Bundle bundle = api.getBundle();
                    if (api.getType().equals(ARCHIVE_SERVICE_API)) {
                        assertTrue(
                                FlowDefinitions.isThisBundle(bundle),
                                "the archive service API ships in this bundle's NAR");
                    } else {
                        assertEquals(
                                List.of("org.apache.nifi", "nifi-standard-services-api-nar", "2.8.0"),
                                List.of(bundle.getGroup(), bundle.getArtifact(), bundle.getVersion()),
                                api.getType());
                    }
                }
            }
        }
        Set<String> declared = flow.services().stream()
                .map(VersionedControllerService::getIdentifier)
                .collect(Collectors.toSet());
        assertEquals(declared, used, file + ": every controller service is used");
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void everyRelationshipIsConnectedOrAutoTerminatedAndConnectionsJoinComponentsOfTheFlow(String file)
            throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        for (VersionedConnection connection : flow.connections()) {
            ConnectableComponent source = connection.getSource();
            ConnectableComponent destination = connection.getDestination();
            assertEquals(nameOf(flow, source), source.getName());
            assertEquals(nameOf(flow, destination), destination.getName());
            assertEquals(
                    source.getType() != ConnectableComponentType.PROCESSOR,
                    connection.getSelectedRelationships().isEmpty(),
                    source.getName() + ": a processor's connection selects relationships, a port's none");
            if (destination.getType() == ConnectableComponentType.PROCESSOR) {
                VersionedProcessor processor = flow.processorById(destination.getId());
                assertTrue(acceptsInput(processor), processor.getName() + " accepts an incoming connection");
            }
        }
        for (VersionedProcessor processor : flow.processors()) {
            Set<String> relationships = relationships(processor);
            Set<String> connected = new TreeSet<>();
            flow.connectionsFrom(processor).forEach(c -> connected.addAll(c.getSelectedRelationships()));
            Set<String> terminated = new TreeSet<>(processor.getAutoTerminatedRelationships());
            Set<String> both = new TreeSet<>(connected);
            both.retainAll(terminated);
            assertEquals(Set.of(), both, processor.getName() + ": connected and auto-terminated at once");
            Set<String> handled = new TreeSet<>(connected);
            handled.addAll(terminated);
            assertEquals(
                    new TreeSet<>(relationships),
                    handled,
                    processor.getName() + ": every relationship, and only those, is handled");
            if (!acceptsInput(processor) || requiresInput(processor)) {
                assertEquals(
                        requiresInput(processor),
                        flow.hasIncomingConnection(processor),
                        processor.getName() + " input");
            }
        }
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void thisBundlesComponentsValidateWithTheFlowsParameters(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        Path root = dir.resolve("archive");
        ParcelArchives.create(root, 60);
        FlowHarness harness = new FlowHarness(flow, testParameters(flow, dir, root), STAND_INS);
        for (VersionedProcessor processor : flow.processors()) {
            if (!FlowDefinitions.isThisBundlesType(processor.getType())) {
                continue;
            }
            TestRunner runner = harness.runner(processor.getName());
            assertEquals(List.of(), invalidResults(runner), file + ": " + processor.getName());
            runner.assertValid();
        }
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void theS3ParametersSetTheArchiveServicesS3PropertiesAndCredentialsStaySensitiveOnBothSides(String file)
            throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        Map<String, VersionedParameter> parameters = new LinkedHashMap<>();
        allParameters(flow).forEach(parameter -> parameters.putIfAbsent(parameter.getName(), parameter));
        VersionedControllerService service = archiveService(flow);
        for (Map.Entry<String, String> s3 : S3_PARAMETERS.entrySet()) {
            assertTrue(parameters.containsKey(s3.getKey()), file + " has parameter " + s3.getKey());
            assertEquals(
                    "#{" + s3.getKey() + "}", service.getProperties().get(s3.getValue()), file + ": " + s3.getValue());
        }
        for (String credential : CREDENTIALS) {
            assertTrue(parameters.get(credential).isSensitive(), credential + " is sensitive");
            assertNull(parameters.get(credential).getValue(), credential + " ships without a value");
        }
        // NiFi lets a sensitive property reference only sensitive parameters, and a non-sensitive one only
        // non-sensitive ones.
        for (VersionedConfigurableExtension component : components(flow)) {
            for (Map.Entry<String, String> property : component.getProperties().entrySet()) {
                boolean sensitiveProperty = component
                        .getPropertyDescriptors()
                        .get(property.getKey())
                        .isSensitive();
                for (String name : FlowDefinitions.referencedParameters(property.getValue())) {
                    assertEquals(
                            sensitiveProperty,
                            parameters.get(name).isSensitive(),
                            file + ": " + component.getName() + " " + property.getKey() + " references " + name);
                }
            }
        }
    }

    /** Why optional settings ship without a value: an empty string is a value, and the property's validator refuses it. */
    @Test
    void anEmptyStringParameterIsAValueTheArchiveServiceRefuses() throws Exception {
        FlowDefinitions flow = FlowDefinitions.load("append-only.json");
        Path local = dir.resolve("archive");
        ParcelArchives.create(local, 20);
        assertNull(
                FlowDefinitions.resolve("#{s3.region}", testParameters(flow, dir, local)),
                "no value: the property is unset");
        Map<String, String> parameters = s3Parameters(flow, local);
        new FlowHarness(flow, parameters, STAND_INS);
        parameters.put("s3.region", "");
        IllegalStateException refused = Assertions.assertThrows(
                IllegalStateException.class, () -> new FlowHarness(flow, parameters, STAND_INS));
        assertTrue(refused.getMessage().contains("S3 Region"), refused.getMessage());
    }

    /** The flow's parameters for a copy of the archive at {@code local} in a new S3Mock bucket. */
    private Map<String, String> s3Parameters(FlowDefinitions flow, Path local) throws IOException {
        String root = S3Archives.upload(local, "parcels");
        Map<String, String> parameters = testParameters(flow, dir, local);
        parameters.put("archive.storage", ArchiveStorageType.S3.getValue());
        parameters.put("archive.root", root);
        parameters.put("archive.allowed.roots", root.substring(0, root.lastIndexOf('/')));
        parameters.put("s3.endpoint", S3Archives.endpoint());
        parameters.put("s3.region", S3Archives.REGION);
        parameters.put("s3.storage.class", "STANDARD_IA");
        parameters.put("s3.minimum.object.age", "0 sec");
        parameters.put("s3.authentication.strategy", "Access Keys");
        parameters.put("s3.access.key.id", S3Archives.ACCESS_KEY_ID);
        parameters.put("s3.secret.access.key", S3Archives.SECRET_ACCESS_KEY);
        return parameters;
    }

    /**
     * The flows' parameters set for an archive on S3 (S3Mock standing in for the store): the archive service validates,
     * enables (so it reached the bucket and opened the archive there) and this bundle's processors validate against it.
     */
    @ParameterizedTest
    @FieldSource("FILES")
    void thisBundlesComponentsValidateWithTheFlowsParametersSetForAnS3Root(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        Path local = dir.resolve("archive");
        ParcelArchives.create(local, 60);
        Map<String, String> parameters = s3Parameters(flow, local);
        String root = parameters.get("archive.root");
        FlowHarness harness = new FlowHarness(flow, parameters, STAND_INS);
        String serviceId = archiveService(flow).getIdentifier();
        for (VersionedProcessor processor : flow.processors()) {
            if (FlowDefinitions.isThisBundlesType(processor.getType())) {
                TestRunner runner = harness.runner(processor.getName());
                assertEquals(List.of(), invalidResults(runner), file + ": " + processor.getName());
                ControllerService service = runner.getControllerService(serviceId);
                assertTrue(
                        runner.isControllerServiceEnabled(service), file + ": the archive service enabled on " + root);
                assertEquals(root, ((GeoParquetArchiveService) service).location());
            }
        }
    }

    @Test
    void theArchiveServiceRefusesAKeyParameterThatIsNotTheArchivesKey() throws Exception {
        FlowDefinitions flow = FlowDefinitions.load("incremental-upsert.json");
        Path root = dir.resolve("archive");
        ParcelArchives.create(root, 20);
        Map<String, String> parameters = testParameters(flow, dir, root);
        parameters.put("archive.key.columns", "land_use");
        IllegalStateException refused = Assertions.assertThrows(
                IllegalStateException.class,
                () -> new FlowHarness(flow, parameters, STAND_INS).runners().forEach(TestRunner::assertValid));
        assertTrue(
                refused.getMessage().contains("parcel_id")
                        || String.valueOf(refused.getCause()).contains("parcel_id"),
                refused.getMessage());
    }

    @Test
    void inAClusterRoutedCellsAreSpreadByTheirCellAndSchedulesRunOnThePrimaryNode() throws Exception {
        for (String file : List.of("incremental-upsert.json", "append-only.json")) {
            FlowDefinitions flow = FlowDefinitions.load(file);
            VersionedProcessor route = flow.processorsOfType("dev.nifigeoparquet.processors.RouteByH3Cell")
                    .getFirst();
            VersionedConnection routed = flow.connectionsOf(route, "success").getFirst();
            assertEquals("PARTITION_BY_ATTRIBUTE", routed.getLoadBalanceStrategy(), file);
            assertEquals("h3.cell", routed.getPartitioningAttribute(), file);
            assertEquals(
                    "dev.nifigeoparquet.processors.UpsertGeoParquetPartition",
                    flow.processorById(routed.getDestination().getId()).getType(),
                    file);
            VersionedProcessor list = flow.processorsOfType("org.apache.nifi.processors.standard.ListFile")
                    .getFirst();
            assertEquals("PRIMARY", list.getExecutionNode(), file + ": one node lists");
            assertEquals(
                    "ROUND_ROBIN",
                    flow.connectionsOf(list, "success").getFirst().getLoadBalanceStrategy(),
                    file);
        }
        FlowDefinitions sweep = FlowDefinitions.load("nightly-compaction-sweep.json");
        for (VersionedProcessor processor : sweep.processors()) {
            // The sweeps start on the primary node only; NiFi refuses that for a processor with incoming connections,
            // which gets only what the sweeps emit there anyway.
            assertEquals(
                    sweep.hasIncomingConnection(processor) ? "ALL" : "PRIMARY",
                    processor.getExecutionNode(),
                    processor.getName() + ": the sweep runs on one node");
            if (FlowDefinitions.isThisBundlesType(processor.getType()) && !sweep.hasIncomingConnection(processor)) {
                assertEquals("CRON_DRIVEN", processor.getSchedulingStrategy(), processor.getName());
                // A daily CRON and an interval a little under a day: a run a few seconds early is not skipped.
                assertEquals("20 hours", processor.getProperties().get("Sweep Interval"), processor.getName());
            }
        }
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void transientFailuresAreRetriedByNiFiThenReachWhereFailuresGoNeverALoop(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        for (VersionedProcessor processor : flow.processors()) {
            if (!relationships(processor).contains("retry") || !flow.hasIncomingConnection(processor)) {
                continue;
            }
            assertEquals(List.of("retry"), List.copyOf(processor.getRetriedRelationships()), processor.getName());
            assertTrue(processor.getRetryCount() >= 3, processor.getName() + ": " + processor.getRetryCount());
            assertEquals("PENALIZE_FLOWFILE", processor.getBackoffMechanism(), processor.getName());
            List<VersionedConnection> retry = flow.connectionsOf(processor, "retry");
            assertEquals(1, retry.size(), processor.getName());
            assertEquals(
                    flow.connectionsOf(processor, "failure").getFirst(),
                    retry.getFirst(),
                    processor.getName() + ": after its retries a FlowFile goes where failures go");
            assertTrue(
                    !retry.getFirst().getDestination().getId().equals(processor.getIdentifier()),
                    processor.getName() + ": no self-loop");
        }
    }

    @ParameterizedTest
    @FieldSource("FILES")
    void theDeltaSequenceComesFromTheDeltaFile(String file) throws Exception {
        FlowDefinitions flow = FlowDefinitions.load(file);
        for (VersionedProcessor upsert :
                flow.processorsOfType("dev.nifigeoparquet.processors.UpsertGeoParquetPartition")) {
            assertEquals("#{delta.sequence}", upsert.getProperties().get("Delta Sequence"), file);
        }
    }

    // ---- helpers

    static final String ARCHIVE_CONTEXT = "GeoParquet archive";

    private static boolean isArchiveParameter(String name) {
        return name.startsWith("archive.") || name.startsWith("s3.") || name.equals("h3.resolution");
    }

    private static Set<String> names(VersionedParameterContext context) {
        return context.getParameters().stream()
                .map(VersionedParameter::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The parameters of the flow's own context and of those it inherits. */
    private static List<VersionedParameter> allParameters(FlowDefinitions flow) {
        return flow.parameterContexts().stream()
                .flatMap(context -> context.getParameters().stream())
                .toList();
    }

    /** The name of the processor or port a connection joins, as the flow defines it. */
    private static String nameOf(FlowDefinitions flow, ConnectableComponent end) {
        return switch (end.getType()) {
            case PROCESSOR -> flow.processorById(end.getId()).getName();
            case INPUT_PORT, OUTPUT_PORT ->
                flow.ports().stream()
                        .filter(p -> p.getIdentifier().equals(end.getId()))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(flow + " has no port " + end.getId()))
                        .getName();
            default -> throw new AssertionError(flow + ": a connection joins a " + end.getType());
        };
    }

    static List<VersionedConfigurableExtension> components(FlowDefinitions flow) {
        List<VersionedConfigurableExtension> components = new ArrayList<>(flow.processors());
        components.addAll(flow.services());
        return components;
    }

    private static void assertSubset(VersionedConfigurableExtension component, Set<String> supported) {
        Set<String> unknown = new TreeSet<>(component.getProperties().keySet());
        unknown.removeAll(supported);
        assertEquals(
                Set.of(),
                unknown,
                component.getName() + " (" + component.getType() + ") sets properties it does not have");
        assertEquals(
                component.getProperties().keySet(),
                component.getPropertyDescriptors().keySet(),
                component.getName() + " describes what it sets");
    }

    private static void assertAllowed(
            VersionedConfigurableExtension component, String property, String value, Set<String> allowed) {
        if (allowed == null
                || allowed.isEmpty()
                || !FlowDefinitions.referencedParameters(value).isEmpty()) {
            return;
        }
        assertTrue(
                allowed.contains(value),
                component.getName() + " " + property + " = " + value + " is not one of " + allowed);
    }

    static Set<String> registeredExtensions() throws IOException {
        Set<String> types = new HashSet<>();
        for (String file : List.of(
                "META-INF/services/org.apache.nifi.processor.Processor",
                "META-INF/services/org.apache.nifi.controller.ControllerService")) {
            try (InputStream in = FlowDefinitionTest.class.getClassLoader().getResourceAsStream(file)) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8)
                        .lines()
                        .map(String::strip)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                        .forEach(types::add);
            }
        }
        return types;
    }

    @SuppressWarnings("RethrowReflectiveOperationExceptionAsLinkageError") // a type that cannot be built fails the test
    static ConfigurableComponent instantiate(String type) {
        try {
            return Class.forName(type)
                    .asSubclass(ConfigurableComponent.class)
                    .getDeclaredConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Cannot instantiate " + type, e);
        }
    }

    private static Set<String> relationships(VersionedProcessor processor) {
        if (FlowDefinitions.isThisBundlesType(processor.getType())) {
            Processor instance = (Processor) instantiate(processor.getType());
            return instance.getRelationships().stream()
                    .map(Relationship::getName)
                    .collect(Collectors.toSet());
        }
        return StandardComponents.of(processor.getType()).orElseThrow().relationships();
    }

    private static boolean acceptsInput(VersionedProcessor processor) {
        if (FlowDefinitions.isThisBundlesType(processor.getType())) {
            InputRequirement requirement =
                    FlowHarness.processorClass(processor.getType()).getAnnotation(InputRequirement.class);
            return requirement == null || requirement.value() != InputRequirement.Requirement.INPUT_FORBIDDEN;
        }
        return !"org.apache.nifi.processors.standard.ListFile".equals(processor.getType());
    }

    private static boolean requiresInput(VersionedProcessor processor) {
        if (FlowDefinitions.isThisBundlesType(processor.getType())) {
            InputRequirement requirement =
                    FlowHarness.processorClass(processor.getType()).getAnnotation(InputRequirement.class);
            return requirement != null && requirement.value() == InputRequirement.Requirement.INPUT_REQUIRED;
        }
        return !"org.apache.nifi.processors.standard.ListFile".equals(processor.getType());
    }

    /** The flow's archive service. */
    private static VersionedControllerService archiveService(FlowDefinitions flow) {
        return flow.services().stream()
                .filter(s -> s.getType().equals(ARCHIVE_SERVICE_TYPE))
                .findFirst()
                .orElseThrow();
    }

    /** What makes the runner's processor, or a service it uses, invalid: each subject with its explanation. */
    private static List<String> invalidResults(TestRunner runner) {
        return runner.validate().stream()
                .filter(r -> !r.isValid())
                .map(r -> r.getSubject() + ": " + r.getExplanation())
                .toList();
    }
}
