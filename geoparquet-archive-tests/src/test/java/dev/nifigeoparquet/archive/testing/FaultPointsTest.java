package dev.nifigeoparquet.archive.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FaultPointsTest {

    private static List<String> calls(int count, int... commitPoints) {
        Set<Integer> commits = IntStream.of(commitPoints).boxed().collect(Collectors.toSet());
        return IntStream.rangeClosed(1, count)
                .mapToObj(i -> (commits.contains(i) ? "createExclusive _geoparquet_archive/log/x/" : "list dir-") + i)
                .toList();
    }

    @Test
    void theSampleKeepsEveryCommitPointEveryKindAndTheEnds() {
        List<String> calls = calls(500, 37, 211, 499);
        List<FaultPoints.Point> sample = FaultPoints.sample(calls, 20);

        Set<Integer> chosen = sample.stream().map(FaultPoints.Point::failAt).collect(Collectors.toSet());
        assertTrue(chosen.containsAll(Set.of(1, 37, 211, 499, 500)), "commit points and both ends: " + chosen);
        assertEquals(
                EnumSet.allOf(Fault.class),
                sample.stream()
                        .map(FaultPoints.Point::fault)
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(Fault.class))));
        assertTrue(sample.size() <= 20 + 3 + 2, "about the asked spread: " + sample.size());
        sample.forEach(point -> assertEquals(calls.get(point.failAt() - 1), point.call()));
        assertEquals(sample, FaultPoints.sample(calls, 20), "the same calls give the same sample");
    }

    @Test
    void anOperationWithFewerCallsThanKindsStillMeetsEveryKind() {
        List<String> calls = calls(2, 2);
        List<FaultPoints.Point> sample = FaultPoints.sample(calls, 20);

        assertEquals(
                EnumSet.allOf(Fault.class),
                sample.stream()
                        .map(FaultPoints.Point::fault)
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(Fault.class))));
        assertTrue(sample.stream()
                .filter(point -> point.fault() == Fault.CRASH_AFTER)
                .allMatch(point -> point.failAt() <= 2));
    }

    @Test
    void theFullProductIsEveryCallWithEveryKind() {
        List<String> calls = calls(7, 3);
        assertEquals(7 * Fault.values().length, FaultPoints.every(calls).size());
        assertEquals(
                7 * Fault.values().length, Set.copyOf(FaultPoints.every(calls)).size());
    }

    @Test
    void aCapOnCommitPointsKeepsTheFirstAndTheLast() {
        List<String> calls = calls(300, 20, 40, 60, 80, 100, 120, 140, 160);
        Set<Integer> chosen = FaultPoints.sample(calls, 4, 3).stream()
                .map(FaultPoints.Point::failAt)
                .filter(failAt -> calls.get(failAt - 1).startsWith("createExclusive "))
                .collect(Collectors.toSet());
        assertEquals(Set.of(20, 100, 160), chosen);
    }

    @Test
    void anotherRotationShiftsTheSampleAndKeepsItsGuarantees() {
        List<String> calls = calls(500, 37, 120, 211, 300, 420, 499);
        List<FaultPoints.Point> first = FaultPoints.sample(calls, 20, 4, 0);
        List<FaultPoints.Point> second = FaultPoints.sample(calls, 20, 4, 1);

        assertTrue(!first.equals(second), "a rotation changes the sample");
        assertEquals(second, FaultPoints.sample(calls, 20, 4, 1), "the same rotation gives the same sample");
        for (List<FaultPoints.Point> sample : List.of(first, second)) {
            Set<Integer> chosen = sample.stream().map(FaultPoints.Point::failAt).collect(Collectors.toSet());
            assertTrue(chosen.containsAll(Set.of(1, 37, 499, 500)), "both ends and both end commit points: " + chosen);
            assertEquals(
                    EnumSet.allOf(Fault.class),
                    sample.stream()
                            .map(FaultPoints.Point::fault)
                            .collect(Collectors.toCollection(() -> EnumSet.noneOf(Fault.class))));
        }
        Set<String> covered = new HashSet<>();
        for (int rotation = 0; rotation < 25; rotation++) {
            FaultPoints.sample(calls, 20, 4, rotation)
                    .forEach(point -> covered.add(point.failAt() + " " + point.fault()));
        }
        assertTrue(
                covered.size() > 3 * first.size(), "rotations reach calls the default leaves out: " + covered.size());
    }
}
