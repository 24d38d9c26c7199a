package dev.nifigeoparquet.cli;

/** The tool's exit codes. */
final class ExitCodes {

    /** The command did what it was asked and every check passed. */
    static final int OK = 0;
    /** A check failed (verification found problems, counts did not reconcile) or the operation failed. */
    static final int CHECK_FAILED = 1;
    /** The command line or an input (file, delta, archive location) is wrong; nothing was changed because of it. */
    static final int USAGE = 2;

    private ExitCodes() {}
}
