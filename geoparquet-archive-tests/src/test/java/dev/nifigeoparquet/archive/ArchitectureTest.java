package dev.nifigeoparquet.archive;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The engine's layering: plain Java that the processors, the command line and the benchmarks drive, with packages that
 * depend on each other in one direction only. From the bottom: {@code error} (the engine's failure types), {@code storage}, {@code geo}, {@code parquet},
 * {@code cells}, {@code concurrent}; {@code format} (the on-disk records); {@code commit} (the commit protocol); the root package (an
 * opened archive and its settings); {@code index}; {@code ops} (planning and applying deltas); and on top
 * {@code verify}, {@code compaction}, {@code adoption}, {@code geojson} and {@code delta} (reading a delta file).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArchitectureTest {

    private static final String ENGINE = "dev.nifigeoparquet.archive";

    /** Every package of the engine is its own slice, the root package included. */
    private static final SliceAssignment EACH_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getPackageName();
            return name.equals(ENGINE) || name.startsWith(ENGINE + ".")
                    ? SliceIdentifier.of(name)
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the engine's packages";
        }
    };

    private JavaClasses engine;

    @BeforeAll
    void importEngine() {
        engine = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("geoparquet-archive-testing")
                        && !location.contains("geoparquet-archive-synthetic"))
                .importPackages(ENGINE);
    }

    @Test
    void theEngineUsesNoNiFiCommandLineOrCloudTypes() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.nifi..", "picocli..", "software.amazon..")
                .because("the engine is driven alike by the processors, the command line and any storage adapter")
                .check(engine);
    }

    @Test
    void everyExceptionIsATopLevelClassOfTheErrorPackage() {
        classes()
                .that()
                .areAssignableTo(Throwable.class)
                .should()
                .resideInAPackage(ENGINE + ".error")
                .andShould()
                .beTopLevelClasses()
                .because("a caller finds every failure the engine can throw in one package")
                .check(engine);
    }

    @Test
    void theEnginesPackagesHaveNoCycles() {
        slices().assignedFrom(EACH_PACKAGE).should().beFreeOfCycles().check(engine);
    }

    @Test
    void lowerLayersDoNotReachUp() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        ENGINE + ".storage..",
                        ENGINE + ".geo..",
                        ENGINE + ".parquet..",
                        ENGINE + ".cells..",
                        ENGINE + ".concurrent..",
                        ENGINE + ".format..",
                        ENGINE + ".commit..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        ENGINE + ".ops..",
                        ENGINE + ".index..",
                        ENGINE + ".verify..",
                        ENGINE + ".compaction..",
                        ENGINE + ".adoption..",
                        ENGINE + ".geojson..")
                .because(
                        "storage, Parquet, geometry, cells, the records and the commit protocol sit below the operations that use them")
                .check(engine);
    }
}
