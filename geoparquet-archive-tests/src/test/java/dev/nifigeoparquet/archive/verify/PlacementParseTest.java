package dev.nifigeoparquet.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.verify.VerifyOptions.Placement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The one reading of a placement check, which the command line's --check-placement and the processor share. */
class PlacementParseTest {

    @Test
    void noneAllAndANumberOfRows() {
        assertEquals(Placement.NONE, Placement.parse(null));
        assertEquals(Placement.NONE, Placement.parse(" None "));
        assertEquals(Placement.ALL, Placement.parse("ALL"));
        assertEquals(Placement.sample(500), Placement.parse(" 500"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "-3", "some", "1.5", "all rows"})
    void anythingElseIsRefusedWithTheTextInTheReason(String text) {
        RejectedInputException refused = assertThrows(RejectedInputException.class, () -> Placement.parse(text));
        assertTrue(refused.getMessage().contains("'" + text.strip() + "'"), refused.getMessage());
    }
}
