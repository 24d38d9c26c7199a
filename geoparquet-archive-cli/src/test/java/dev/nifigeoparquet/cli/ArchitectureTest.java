package dev.nifigeoparquet.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The command line is a second adapter over the engine, beside the processors, never on top of them. */
class ArchitectureTest {

    @Test
    void theCommandLineUsesTheEngineNotTheProcessors() {
        JavaClasses cli = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.nifigeoparquet.cli");
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.nifigeoparquet.processors..", "dev.nifigeoparquet.services..", "org.apache.nifi..")
                .because("the command line and the processors are two adapters over the same engine")
                .check(cli);
    }
}
