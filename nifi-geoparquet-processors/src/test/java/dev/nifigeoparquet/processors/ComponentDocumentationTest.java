package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordSetWriter;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.nifi.annotation.documentation.MultiProcessorUseCase;
import org.apache.nifi.annotation.documentation.ProcessorConfiguration;
import org.apache.nifi.components.AllowableValue;
import org.apache.nifi.components.ConfigurableComponent;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.processor.Processor;
import org.apache.nifi.processor.Relationship;
import org.junit.jupiter.api.Test;

/**
 * What NiFi's documentation shows of the bundle: the flow of RouteByH3Cell's multi-processor use case names the
 * processors in flow order, every property and relationship it quotes is one of that processor's, and every choice a
 * property offers says what it does.
 */
class ComponentDocumentationTest {

    private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");

    private static final List<Class<? extends ConfigurableComponent>> COMPONENTS = List.of(
            RouteByH3Cell.class,
            UpsertGeoParquetPartition.class,
            CompactGeoParquetPartition.class,
            VerifyGeoMetadata.class,
            StandardGeoParquetArchiveService.class,
            GeoParquetReader.class,
            GeoParquetRecordSetWriter.class);

    @Test
    void everyChoiceAPropertyOffersSaysWhatItDoes() throws Exception {
        List<String> undescribed = new ArrayList<>();
        for (Class<? extends ConfigurableComponent> type : COMPONENTS) {
            ConfigurableComponent component = type.getDeclaredConstructor().newInstance();
            for (PropertyDescriptor property : component.getPropertyDescriptors()) {
                List<AllowableValue> choices = property.getAllowableValues();
                if (choices == null || isBoolean(choices)) {
                    continue;
                }
                for (AllowableValue choice : choices) {
                    if (choice.getDescription() == null
                            || choice.getDescription().isBlank()) {
                        undescribed.add(type.getSimpleName() + "." + property.getName() + " = " + choice.getValue());
                    }
                }
            }
        }
        assertEquals(List.of(), undescribed);
    }

    /**
     * A flow stores a choice as its value: one form for every property (the name the canvas shows), so that a flow
     * definition, an Expression Language comparison and the documentation all read the same words.
     */
    @Test
    void everyChoiceIsStoredAsTheNameTheCanvasShows() throws Exception {
        List<String> storedOtherwise = new ArrayList<>();
        for (Class<? extends ConfigurableComponent> type : COMPONENTS) {
            ConfigurableComponent component = type.getDeclaredConstructor().newInstance();
            for (PropertyDescriptor property : component.getPropertyDescriptors()) {
                List<AllowableValue> choices = property.getAllowableValues();
                for (AllowableValue choice : choices == null ? List.<AllowableValue>of() : choices) {
                    if (!choice.getValue().equals(choice.getDisplayName())) {
                        storedOtherwise.add(type.getSimpleName() + "." + property.getName() + " stores "
                                + choice.getValue() + " for " + choice.getDisplayName());
                    }
                }
            }
        }
        assertEquals(List.of(), storedOtherwise);
    }

    private static boolean isBoolean(List<AllowableValue> choices) {
        return choices.size() == 2
                && choices.stream()
                        .map(AllowableValue::getValue)
                        .collect(java.util.stream.Collectors.toSet())
                        .equals(Set.of("true", "false"));
    }

    @Test
    void theNightlyFlowNamesRouteUpsertCompactAndVerifyWithTheirOwnPropertiesAndRelationships() throws Exception {
        MultiProcessorUseCase useCase = RouteByH3Cell.class.getAnnotation(MultiProcessorUseCase.class);
        assertNotNull(useCase, "RouteByH3Cell documents the whole flow");
        List<String> processors = new ArrayList<>();
        for (ProcessorConfiguration configuration : useCase.configurations()) {
            processors.add(configuration.processorClassName());
            Processor processor = Class.forName(configuration.processorClassName())
                    .asSubclass(Processor.class)
                    .getDeclaredConstructor()
                    .newInstance();
            Set<String> names = new HashSet<>();
            for (PropertyDescriptor property : processor.getPropertyDescriptors()) {
                names.add(property.getName());
            }
            for (Relationship relationship : processor.getRelationships()) {
                names.add(relationship.getName());
            }
            Matcher quoted = QUOTED.matcher(configuration.configuration());
            int checked = 0;
            while (quoted.find()) {
                assertTrue(
                        names.contains(quoted.group(1)),
                        configuration.processorClassName() + " has no property or relationship \"" + quoted.group(1)
                                + "\"; it has " + names);
                checked++;
            }
            assertTrue(checked >= 3, configuration.processorClassName() + " names what to set: " + checked);
        }
        assertEquals(
                List.of(
                        RouteByH3Cell.class.getName(),
                        UpsertGeoParquetPartition.class.getName(),
                        CompactGeoParquetPartition.class.getName(),
                        VerifyGeoMetadata.class.getName()),
                processors);
    }
}
