import type { ControlPlane, ExecutionRef, RunningImport } from '../../lambdas/control-plane/control-plane.js';

/**
 * The control plane of local runs: there is no Step Functions or Lambda here, so running imports are the
 * ones this process runs (registered by the runner for as long as each runs), and there is no Lambda
 * concurrency to fit lanes to.
 */
export class LocalControlPlane implements ControlPlane {
  private readonly running = new Map<string, RunningImport & { readonly stateMachineArn: string }>();

  /** Registers an execution until the returned function is called. */
  register(stateMachineArn: string, execution: RunningImport): () => void {
    this.running.set(execution.id, { ...execution, stateMachineArn });
    return () => this.running.delete(execution.id);
  }

  async runningImports(stateMachineArn: string, self: ExecutionRef): Promise<RunningImport[]> {
    return [...this.running.values()].filter(
      (execution) =>
        execution.stateMachineArn === stateMachineArn &&
        execution.id !== self.id &&
        Date.parse(execution.startTime) <= Date.parse(self.startTime),
    );
  }

  async importConcurrency(): Promise<null> {
    return null;
  }
}

/** One registry per process: every local import this process runs sees the others. */
export const localControlPlane = new LocalControlPlane();
