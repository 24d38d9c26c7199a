/**
 * Every exception the engine defines. Those a caller has to tell apart are each of one {@link
 * dev.nifigeoparquet.archive.error.FailureKind} (transient, bad input, operator action), so the command line and the
 * processors route failures alike. The others (a plan outdated by a concurrent writer, a participant of a commit that
 * failed, a batch partly committed or partly created, a key-index fold a later fold made unnecessary) are signals
 * within the engine, each caught by the package that expects it. API: the whole package.
 */
package dev.nifigeoparquet.archive.error;
