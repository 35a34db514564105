import type { ResolvedRequest } from './import-request.js';
import type { ChunkResult, ChunkResultArray } from './chunk-counts.js';
import type { KeyAttribute } from './key-attribute.js';

/**
 * The payloads of a mirror's workflow states (statemachine/import.asl.json, after ImportChunks): MirrorPlan, the Maps
 * over Scan segments and key parts, MirrorGuard. All kept in the state at `$.mirror`, small: one number pair per
 * segment or part.
 */

/** A key as one JSON line writes it: DynamoDB JSON, B as base64. */
export type KeyJson = Record<string, { S?: string; N?: string; B?: string }>;

/** What MirrorPlan receives. */
export interface MirrorPlanEvent {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  readonly keys: KeyAttribute[];
  /** PlanningState.dataBytes: the file-side parts (as the chunks recorded them) and the least segments. */
  readonly dataBytes: number;
}

/** MirrorPlan's result: how the keys are split, and the lists the Maps iterate (Map needs an array at ItemsPath). */
export interface MirrorPlan {
  /** Key parts: file keys and table keys meet by a hash of the key modulo this (lambdas/mirror/key-parts.ts). */
  readonly parts: number;
  /**
   * The parts the chunks recorded the file's keys in (from the file's size; `parts` is a multiple of it, grown with
   * the table's DescribeTable ItemCount): part `p` reads file-side part `p % fileParts`.
   */
  readonly fileParts: number;
  /** The Scan's TotalSegments. */
  readonly totalSegments: number;
  /** 0 .. totalSegments - 1. */
  readonly segments: number[];
  /** 0 .. parts - 1. */
  readonly partList: number[];
}

/** What every Map item of the mirror shares (copied by the Maps' ItemSelectors). */
export interface MirrorJob {
  readonly request: ResolvedRequest;
  readonly executionName: string;
  readonly keys: KeyAttribute[];
  readonly parts: number;
  /** MirrorPlan.fileParts. */
  readonly fileParts: number;
  readonly totalSegments: number;
  /**
   * The lanes the ledger granted (`$.lanes.granted`, each Map's MaxConcurrency): a Scan segment or a part's deletes
   * take maxWriteRate / min(lanes, segments or parts) of the live rate.
   */
  readonly maxConcurrency: number;
}

/** One MirrorScanSegment invocation's progress; `next` is null once the segment is scanned. */
export interface SegmentProgress {
  /** Where the next invocation resumes: the Scan's LastEvaluatedKey, and its ordinal (it names its objects). */
  readonly next: { readonly startKey: KeyJson; readonly invocation: number } | null;
  /** Items of the segment in scope so far (the Scan's Count, after its begins_with filter). */
  readonly scanned: number;
  /** The import is paused (`s3-ddb-import pause`): the segment holds `next` and asks again after this wait. */
  readonly pausedWaitSeconds?: number;
}

/** What MirrorScanSegment receives. */
export interface ScanSegmentEvent {
  readonly job: MirrorJob;
  readonly segment: number;
  readonly progress?: SegmentProgress;
}

/** What MirrorComparePart and MirrorDeletePart receive. */
export interface PartEvent {
  readonly job: MirrorJob;
  readonly part: number;
  readonly progress?: DeleteProgress;
}

/** MirrorComparePart's result: the part's table keys the file does not hold (each a line of its delete list). */
export interface ComparedPart {
  readonly part: number;
  readonly notInFile: number;
}

/** One MirrorDeletePart invocation's progress; `next` is null once every key of the part's list is deleted. */
export interface DeleteProgress {
  /** The index of the next line of the delete list. */
  readonly next: { readonly line: number } | null;
  readonly deleted: number;
  /** The import is paused (`s3-ddb-import pause`): the part holds `next` and asks again after this wait. */
  readonly pausedWaitSeconds?: number;
}

/** The mirror's state at `$.mirror`, as each step fills it ({} when the import is no mirror: MirrorSkipped). */
export interface MirrorState extends Partial<MirrorPlan> {
  /** [segment, items in scope] per segment (SegmentScanned). */
  readonly scanned?: number[][];
  readonly compared?: ComparedPart[];
  readonly guard?: MirrorGuardResult;
  /** The last MirrorDropKeyParts invocation's result (KeyPartsDropped? loops until `done`). */
  readonly keyParts?: DroppedKeyParts;
  /** [part, deleted] per part (PartDeleted); absent in a dry run. */
  readonly deletedParts?: number[][];
}

/** What MirrorGuard receives: the request, the mirror so far and the chunks' counts (a rejected row stops it). */
export interface MirrorGuardEvent {
  readonly request: ResolvedRequest;
  readonly mirror: MirrorState;
  readonly chunkResults: (ChunkResultArray | ChunkResult)[];
}

/** MirrorGuard's result: the decision made before the first delete. */
export interface MirrorGuardResult {
  /** Items of the table in scope when scanned (after the file's rows were applied). */
  readonly inScope: number;
  /** Of those, the keys the file does not hold: what the mirror deletes. */
  readonly notInFile: number;
  /** notInFile as a percentage of inScope (0 when the scope is empty). */
  readonly percent: number;
  /** A dry run is not stopped: why a real run would stop, or null. */
  readonly refusal: string | null;
}

/** The mirror's facts in the summary (ImportSummary.mirror). */
export interface MirrorSummary {
  readonly inScope: number;
  readonly notInFile: number;
  readonly deleted: number;
  readonly maxDeletePercent: number;
  readonly scope: ResolvedRequest['scope'] | null;
  /** Prefix of the delete lists (diff lines), `<execution>/diff/mirror-deletes-*.jsonl`. */
  readonly deletesKey: string;
  readonly refusal: string | null;
}

/** What MirrorDropKeyParts receives: the execution whose key parts go. */
export interface DropKeyPartsEvent {
  readonly request: ResolvedRequest;
  readonly executionName: string;
}

/** MirrorDropKeyParts' result: objects deleted by this invocation; `done` once none is left. */
export interface DroppedKeyParts {
  readonly objects: number;
  readonly done: boolean;
}

/** Which of its Task states an event of the MirrorParts function is for (the ASL's Parameters set `step`). */
export type MirrorPartsEvent =
  | (PartEvent & { readonly step: 'compare' })
  | (PartEvent & { readonly step: 'delete' })
  | (MirrorGuardEvent & { readonly step: 'guard' })
  | (DropKeyPartsEvent & { readonly step: 'drop' });
