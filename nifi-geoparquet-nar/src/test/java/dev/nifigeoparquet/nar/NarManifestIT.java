package dev.nifigeoparquet.nar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Opens the NAR that the build packaged and checks that NiFi will find every component: the extension manifest NiFi
 * reads lists exactly the processors and controller services the processors jar registers in its
 * {@code META-INF/services} files. A component added later is covered without touching this test.
 */
class NarManifestIT {

    private static final String MANIFEST = "META-INF/docs/extension-manifest.xml";
    private static final String BUNDLED = "META-INF/bundled-dependencies/";
    private static final String PROCESSORS_JAR_PREFIX = BUNDLED + "nifi-geoparquet-processors-";
    private static final String PROCESSOR_SERVICES = "META-INF/services/org.apache.nifi.processor.Processor";
    private static final String CONTROLLER_SERVICES = "META-INF/services/org.apache.nifi.controller.ControllerService";

    /** Packages of geoparquet-archive-testing: test fixtures and the synthetic data generator, never part of the NAR. */
    private static final List<String> TEST_SUPPORT =
            List.of("dev/nifigeoparquet/archive/testing/", "dev/nifigeoparquet/archive/synthetic/");

    private static Map<String, Set<String>> manifestByType;
    private static Map<String, byte[]> processorsJar;
    /** The bundled jars' file names. */
    private static final Set<String> bundledJars = new TreeSet<>();
    /** The class files of the bundle's own jars (this project's modules), by jar. */
    private static final Map<String, Set<String>> ownClasses = new HashMap<>();

    @BeforeAll
    static void openNar() throws Exception {
        String narFile = System.getProperty("nar.file");
        assertNotNull(narFile, "the build passes -Dnar.file");
        Path nar = Path.of(narFile);
        assertTrue(Files.isRegularFile(nar), nar + " was not packaged");
        try (ZipFile zip = new ZipFile(nar.toFile())) {
            ZipEntry manifest = zip.getEntry(MANIFEST);
            assertNotNull(manifest, nar + " has no " + MANIFEST);
            try (InputStream in = zip.getInputStream(manifest)) {
                manifestByType = extensions(in.readAllBytes());
            }
            ZipEntry jar = null;
            for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
                ZipEntry entry = entries.nextElement();
                if (entry.getName().startsWith(PROCESSORS_JAR_PREFIX)
                        && entry.getName().endsWith(".jar")) {
                    jar = entry;
                }
                if (entry.getName().startsWith(BUNDLED) && entry.getName().endsWith(".jar")) {
                    String name = entry.getName().substring(BUNDLED.length());
                    bundledJars.add(name);
                    if (name.startsWith("geoparquet-archive") || name.startsWith("nifi-geoparquet")) {
                        try (InputStream in = zip.getInputStream(entry)) {
                            ownClasses.put(name, classes(in));
                        }
                    }
                }
            }
            assertNotNull(jar, nar + " bundles no nifi-geoparquet-processors jar");
            try (InputStream in = zip.getInputStream(jar)) {
                processorsJar = entries(in);
            }
        }
    }

    @Test
    void listsExactlyTheRegisteredProcessors() {
        Set<String> registered = registered(PROCESSOR_SERVICES);
        assertTrue(registered.contains("dev.nifigeoparquet.processors.RouteByH3Cell"), registered.toString());
        assertEquals(registered, manifestByType.getOrDefault("PROCESSOR", Set.of()));
    }

    @Test
    void listsExactlyTheRegisteredControllerServices() {
        Set<String> registered = registered(CONTROLLER_SERVICES);
        assertTrue(
                registered.contains("dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService"),
                registered.toString());
        assertEquals(registered, manifestByType.getOrDefault("CONTROLLER_SERVICE", Set.of()));
    }

    @Test
    void listsNoOtherKindOfComponent() {
        Set<String> types = new TreeSet<>(manifestByType.keySet());
        types.removeAll(Set.of("PROCESSOR", "CONTROLLER_SERVICE"));
        assertTrue(types.isEmpty(), "unexpected component types " + types);
    }

    @Test
    void bundlesNoTestSupport() {
        assertTrue(
                bundledJars.stream().anyMatch(jar -> jar.startsWith("geoparquet-archive-0")),
                "the engine is bundled: " + bundledJars);
        assertTrue(
                bundledJars.stream().noneMatch(jar -> jar.startsWith("geoparquet-archive-testing")),
                bundledJars.toString());
        ownClasses.forEach((jar, classes) -> {
            List<String> testSupport = classes.stream()
                    .filter(name -> TEST_SUPPORT.stream().anyMatch(name::startsWith) || name.contains("FaultInjecting"))
                    .toList();
            assertTrue(testSupport.isEmpty(), jar + " holds test support classes " + testSupport);
        });
    }

    /**
     * The AWS SDK is in the NAR only relocated: the parent, nifi-aws-service-api-nar, carries the runtime's own SDK,
     * whose classes a NAR loads first, so an unrelocated copy would mix two SDK releases.
     */
    @Test
    void bundlesTheAwsSdkOnlyRelocated() {
        assertTrue(
                bundledJars.stream().noneMatch(jar -> jar.startsWith("s3-") || jar.startsWith("sdk-core-")),
                "no AWS SDK jar of its own: " + bundledJars);
        Set<String> relocated = ownClasses.entrySet().stream()
                .filter(jar -> jar.getKey().startsWith("nifi-geoparquet-s3-relocated"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no nifi-geoparquet-s3-relocated jar in " + bundledJars))
                .getValue();
        assertTrue(relocated.contains("dev/nifigeoparquet/archive/s3/S3ArchiveStorage.class"), "the S3 storage");
        assertTrue(
                relocated.stream().anyMatch(name -> name.startsWith("dev/nifigeoparquet/archive/s3/relocated/awssdk/")),
                "the SDK, relocated");
        ownClasses.forEach((jar, classes) -> assertTrue(
                classes.stream().noneMatch(name -> name.startsWith("software/amazon/awssdk/")),
                jar + " holds unrelocated AWS SDK classes"));
    }

    private static Set<String> registered(String servicesFile) {
        byte[] bytes = processorsJar.get(servicesFile);
        assertNotNull(bytes, "the processors jar has no " + servicesFile);
        Set<String> classes = new TreeSet<>();
        for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n", -1)) {
            String name = line.replaceAll("#.*", "").strip();
            if (!name.isEmpty()) {
                classes.add(name);
            }
        }
        assertFalse(classes.isEmpty(), servicesFile + " registers nothing");
        return classes;
    }

    /** Component class names by extension type, from the manifest NiFi reads. */
    private static Map<String, Set<String>> extensions(byte[] xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        Map<String, Set<String>> byType = new HashMap<>();
        NodeList extensions = document.getElementsByTagName("extension");
        for (int i = 0; i < extensions.getLength(); i++) {
            Element extension = (Element) extensions.item(i);
            byType.computeIfAbsent(child(extension, "type"), type -> new TreeSet<>())
                    .add(child(extension, "name"));
        }
        return byType;
    }

    private static String child(Element parent, String name) {
        NodeList children = parent.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element element
                    && element.getTagName().equals(name)) {
                return element.getTextContent().strip();
            }
        }
        throw new AssertionError("an extension without <" + name + ">");
    }

    /** The class files of a nested jar. */
    private static Set<String> classes(InputStream jar) throws IOException {
        Set<String> classes = new TreeSet<>();
        try (ZipInputStream zip = new ZipInputStream(jar)) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                if (entry.getName().endsWith(".class")) {
                    classes.add(entry.getName());
                }
            }
        }
        return classes;
    }

    /** The small entries of a nested jar, by name. */
    private static Map<String, byte[]> entries(InputStream jar) throws IOException {
        Map<String, byte[]> entries = new HashMap<>();
        try (ZipInputStream zip = new ZipInputStream(jar)) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                if (entry.getName().startsWith("META-INF/services/")) {
                    entries.put(entry.getName(), zip.readAllBytes());
                }
            }
        }
        return entries;
    }
}
