package dev.nifigeoparquet.archive.error;

import java.util.List;

/**
 * The delta cannot be applied as it is; nothing was written. The message names every problem found (up to a
 * limit), each with the record or field it concerns.
 */
public final class DeltaRejectedException extends RejectedInputException {

    private static final int PROBLEMS_IN_MESSAGE = 10;

    private final List<String> problems;

    public DeltaRejectedException(String context, List<String> problems) {
        super(context + ": " + summary(problems));
        this.problems = List.copyOf(problems);
    }

    public DeltaRejectedException(String context, String problem) {
        this(context, List.of(problem));
    }

    public List<String> problems() {
        return problems;
    }

    private static String summary(List<String> problems) {
        if (problems.size() <= PROBLEMS_IN_MESSAGE) {
            return String.join("; ", problems);
        }
        return String.join("; ", problems.subList(0, PROBLEMS_IN_MESSAGE)) + "; and "
                + (problems.size() - PROBLEMS_IN_MESSAGE) + " more";
    }
}
