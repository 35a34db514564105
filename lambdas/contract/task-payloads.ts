import type {
  ChunkProgress,
  ImportChunkEvent,
  ImportSummary,
  PlanningState,
  PreflightEvent,
  ReleasedLanes,
  ReleaseLanesEvent,
  SummarizeEvent,
} from './workflow-payloads.js';
import type {
  ComparedPart,
  DeleteProgress,
  MirrorGuardResult,
  MirrorPartsEvent,
  MirrorPlan,
  MirrorPlanEvent,
  ScanSegmentEvent,
  SegmentProgress,
} from './mirror-payloads.js';

/** An error as a Catch's ResultPath holds it and a Fail state's ErrorPath/CausePath read it. */
export interface StateError {
  readonly Error: string;
  readonly Cause: string;
}

/** The FindFailedChunk task's input: the error the ImportChunks Map was caught with, and the execution. */
export interface FindFailedChunkEvent {
  readonly error: StateError;
  readonly executionArn: string;
}

/**
 * What each Lambda function of the workflow (lib/workflow-tasks.ts TASK_FUNCTIONS) takes and returns: the local
 * runner types its one invoke and its progress reports by it. The Summarize function serves two Task states.
 * @example
 * type PreflightResult = TaskPayloads['Preflight']['result']; // PlanningState
 */
export interface TaskPayloads {
  readonly Preflight: { readonly event: PreflightEvent; readonly result: PlanningState };
  readonly ImportChunk: { readonly event: ImportChunkEvent; readonly result: ChunkProgress };
  readonly Summarize: {
    readonly event: SummarizeEvent | ReleaseLanesEvent;
    readonly result: ImportSummary | ReleasedLanes;
  };
  readonly FindFailedChunk: { readonly event: FindFailedChunkEvent; readonly result: StateError };
  /** A mirror's MirrorPlan and MirrorScanSegment states (mirror-payloads.ts). */
  readonly MirrorScan: {
    readonly event: MirrorPlanEvent | ScanSegmentEvent;
    readonly result: MirrorPlan | SegmentProgress;
  };
  /** A mirror's MirrorComparePart, MirrorGuard and MirrorDeletePart states. */
  readonly MirrorParts: {
    readonly event: MirrorPartsEvent;
    readonly result: ComparedPart | MirrorGuardResult | DeleteProgress;
  };
}
