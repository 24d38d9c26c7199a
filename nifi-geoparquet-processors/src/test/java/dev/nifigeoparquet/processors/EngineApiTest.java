package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The adapters (the processors, the command line, the S3 storage) use the engine only through the classes each engine
 * package's {@code package-info.java} names as its API, so what the engine may change freely is written down.
 */
class EngineApiTest {

    private static final String ENGINE = "dev.nifigeoparquet.archive";
    private static final Path ENGINE_SOURCES = Path.of("..", "geoparquet-archive", "src", "main", "java");
    /** A {@code @link} tag naming an engine class; javadoc may break the line after {@code @link}. */
    private static final Pattern LINK =
            Pattern.compile("\\{@link\\s*(?:\\*\\s*)?(" + Pattern.quote(ENGINE) + "[.\\w]*\\.[A-Z]\\w*)\\}");

    private static final String WHOLE_PACKAGE = "API: the whole package.";

    @Test
    void adaptersUseOnlyTheEnginesDeclaredApi() throws IOException {
        Set<String> api = new TreeSet<>();
        Set<String> openPackages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ENGINE_SOURCES)) {
            for (Path info : (Iterable<Path>) files.filter(f -> f.endsWith("package-info.java"))::iterator) {
                String text = Files.readString(info);
                Matcher link = LINK.matcher(text);
                while (link.find()) {
                    api.add(link.group(1));
                }
                if (text.contains(WHOLE_PACKAGE)) {
                    openPackages.add(packageOf(ENGINE_SOURCES.relativize(info.getParent())));
                }
            }
        }
        assertTrue(api.size() > 40, "the package-info files name the API: " + api);

        JavaClasses adapters = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(
                        "dev.nifigeoparquet.processors",
                        "dev.nifigeoparquet.services",
                        "dev.nifigeoparquet.cli",
                        "dev.nifigeoparquet.archive.s3");
        Set<String> outsideTheApi = new TreeSet<>();
        for (JavaClass adapter : adapters) {
            if (adapter.getPackageName().startsWith(ENGINE)
                    && !adapter.getPackageName().startsWith(ENGINE + ".s3")) {
                continue;
            }
            for (Dependency dependency : adapter.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                String name = topLevel(target).getName();
                String pkg = target.getPackageName();
                boolean engine = pkg.equals(ENGINE) || pkg.startsWith(ENGINE + ".");
                boolean notEngine = pkg.startsWith(ENGINE + ".s3")
                        || pkg.startsWith(ENGINE + ".synthetic")
                        || pkg.startsWith(ENGINE + ".testing");
                if (engine && !notEngine && !api.contains(name) && !openPackages.contains(pkg)) {
                    outsideTheApi.add(name + " (used by " + topLevel(adapter).getSimpleName() + ")");
                }
            }
        }
        assertEquals(Set.of(), outsideTheApi, "engine classes used by an adapter but not named as API");
    }

    private static JavaClass topLevel(JavaClass type) {
        JavaClass outer = type;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }

    private static String packageOf(Path directory) {
        return directory.toString().replace(java.io.File.separatorChar, '.');
    }
}
