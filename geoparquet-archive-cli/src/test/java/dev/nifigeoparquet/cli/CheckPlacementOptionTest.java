package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.verify.VerifyOptions.Placement;
import org.junit.jupiter.api.Test;

/** --check-placement takes what VerifyGeoMetadata's Placement Check takes, "none" included. */
class CheckPlacementOptionTest {

    @Test
    void takesNoneAllAndANumberAsTheProcessorDoes() {
        assertEquals(Placement.NONE, VerifyCommand.placement(null));
        assertEquals(Placement.NONE, VerifyCommand.placement("none"));
        assertEquals(Placement.ALL, VerifyCommand.placement("all"));
        assertEquals(Placement.sample(40), VerifyCommand.placement("40"));
    }

    @Test
    void refusesAnythingElseNamingTheOption() {
        InputException refused = assertThrows(InputException.class, () -> VerifyCommand.placement("most"));
        assertTrue(refused.getMessage().startsWith("--check-placement: "), refused.getMessage());
        assertTrue(refused.getMessage().contains("'most'"), refused.getMessage());
    }
}
