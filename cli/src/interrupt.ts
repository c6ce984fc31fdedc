/**
 * Ctrl-C during `conform run`: the first interrupt stops new scenarios (the running ones finish, what the run created
 * is deleted, a partial report marked interrupted is written, exit 130); a second one stops at once.
 */

/** An AbortSignal aborted by the first SIGINT or SIGTERM; `dispose` removes the handlers. */
export function interruptSignal(stderr: { write(s: string): unknown }): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) {
      stderr.write('\nconform: stopped at once (second interrupt); nothing more was written or deleted\n');
      process.exit(130);
    }
    controller.abort();
    stderr.write(
      '\nconform: interrupted — finishing the running scenarios, deleting what the run created and writing a partial report (Ctrl-C again to stop at once)\n',
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
