package dev.nifigeoparquet.archive.verify;

import java.util.ArrayList;
import java.util.List;

/** Problems and known variations collected during one verification. */
final class Findings {

    final List<Problem> problems = new ArrayList<>();
    final List<Problem> knownVariations = new ArrayList<>();

    void problem(Problem problem) {
        problems.add(problem);
    }

    void problemOrVariation(Problem finding, boolean knownVariation) {
        (knownVariation ? knownVariations : problems).add(finding);
    }
}
