package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.error.InvalidCellException;
import dev.nifigeoparquet.archive.error.InvalidCellException.Rule;
import java.io.IOException;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class H3CellsTest {

    private static final int RESOLUTION = 9;

    private final H3Core h3 = newH3();
    private final String cell = h3.latLngToCellAddress(48.8566, 2.3522, RESOLUTION);

    @Test
    void acceptsACellThatH3ItselfProduced() {
        assertEquals(cell, H3Cells.requireCanonical(cell, RESOLUTION));
        assertEquals(RESOLUTION, H3Cells.resolutionOf(cell));
    }

    @Test
    void acceptsCellsAtEveryResolution() {
        for (int r = H3Cells.MIN_RESOLUTION; r <= H3Cells.MAX_RESOLUTION; r++) {
            String c = h3.latLngToCellAddress(-33.86, 151.21, r);
            assertEquals(c, H3Cells.requireCanonical(c, r));
            assertEquals(r, H3Cells.resolutionOf(c));
        }
    }

    @Test
    void rejectsMissingNames() {
        assertRule(Rule.MISSING, null);
        assertRule(Rule.MISSING, "");
    }

    @Test
    void rejectsUpperCase() {
        assertRule(Rule.UPPER_CASE, cell.toUpperCase(Locale.ROOT));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "../x",
                "..",
                "a/b",
                "8a2a1072b59ffff/../x",
                " 8a2a1072b59ffff",
                "8a2a1072b59ffff\n",
                "8a2a 1072b59ffff",
                "8g2a1072b59ffff",
                "+8a2a1072b59fff",
                "0x8a2a1072b59fff",
                "8a2a1072b59ffff0000"
            })
    void rejectsAnythingButLowerCaseHex(String bad) {
        assertRule(Rule.NOT_HEX, bad);
    }

    @Test
    void rejectsWhitespaceAroundARealCell() {
        assertRule(Rule.NOT_HEX, cell + " ");
        assertRule(Rule.NOT_HEX, "\t" + cell);
    }

    @Test
    void rejectsH3IndexesThatAreNotCells() {
        long index = h3.stringToH3(cell);
        String edge = h3.h3ToString(h3.originToDirectedEdges(index).get(0));
        String vertex = h3.h3ToString(h3.cellToVertex(index, 0));
        assertTrue(h3.isValidDirectedEdge(edge) && h3.isValidVertex(vertex), "fixture: a real edge and a real vertex");

        assertRule(Rule.NOT_A_CELL, edge);
        assertRule(Rule.NOT_A_CELL, vertex);
        assertRule(Rule.NOT_A_CELL, "0");
        assertRule(Rule.NOT_A_CELL, "ffffffffffffffff");
    }

    @Test
    void rejectsLeadingZeros() {
        assertTrue(h3.isValidCell("0" + cell), "fixture: H3 itself accepts the padded form");
        assertRule(Rule.NOT_CANONICAL, "0" + cell);
    }

    @Test
    void rejectsValidCellsOfAnotherResolutionNamingBoth() {
        String parent = h3.cellToParentAddress(cell, RESOLUTION - 1);
        InvalidCellException e =
                assertThrows(InvalidCellException.class, () -> H3Cells.requireCanonical(parent, RESOLUTION));
        assertEquals(Rule.WRONG_RESOLUTION, e.rule());
        assertTrue(e.getMessage().contains("resolution " + (RESOLUTION - 1)), e.getMessage());
        assertTrue(e.getMessage().contains("resolution " + RESOLUTION), e.getMessage());
    }

    @Test
    void messagesEscapeControlCharacters() {
        InvalidCellException e =
                assertThrows(InvalidCellException.class, () -> H3Cells.requireCanonical("x\ny", RESOLUTION));
        assertTrue(e.getMessage().startsWith("NOT_HEX: "), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void validatesResolutions() {
        assertEquals(15, H3Cells.requireResolution(15));
        assertThrows(IllegalArgumentException.class, () -> H3Cells.requireResolution(-1));
        assertThrows(IllegalArgumentException.class, () -> H3Cells.requireResolution(16));
        assertThrows(IllegalArgumentException.class, () -> H3Cells.requireCanonical(cell, 16));
    }

    private static void assertRule(Rule expected, String bad) {
        InvalidCellException e =
                assertThrows(InvalidCellException.class, () -> H3Cells.requireCanonical(bad, RESOLUTION));
        assertEquals(expected, e.rule(), e.getMessage());
        assertTrue(e.getMessage().startsWith(expected + ": "), e.getMessage());
        assertEquals(
                expected,
                assertThrows(InvalidCellException.class, () -> H3Cells.resolutionOf(bad))
                        .rule());
    }

    static H3Core newH3() {
        try {
            return H3Core.newInstance();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
