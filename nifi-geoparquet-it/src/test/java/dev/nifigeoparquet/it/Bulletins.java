package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

/** Checks on the bulletins NiFi shows for a flow's components. */
final class Bulletins {

    private Bulletins() {}

    /** None of the named components raised an ERROR bulletin. */
    static void requireNoErrors(List<FlowGroup.Bulletin> bulletins, List<String> components) {
        List<FlowGroup.Bulletin> errors = bulletins.stream()
                .filter(bulletin -> bulletin.level().equals("ERROR") && components.contains(bulletin.sourceName()))
                .toList();
        assertEquals(List.of(), errors, "ERROR bulletins on a good path");
    }
}
