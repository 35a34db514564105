import type { LiveSettings } from '../../lambdas/admission/ledger-items.js';
import type { ProgressSnapshot } from './snapshot.js';

/** A snapshot of a deployed import with, when its ledger has them, its live settings (`rate`, `pause`, `resume`). */
export type LiveSnapshot = ProgressSnapshot & { readonly live?: LiveSettings };

/** Minimum time between progress lines when stderr is not a terminal (CI logs stay short). */
export const LOG_INTERVAL_MS = 2000;
/** Characters of the bar drawn on a terminal. */
const BAR_WIDTH = 20;

/** Where progress goes: stderr lines, or one rewritten line on a terminal. */
export interface ProgressSink {
  err(line: string): void;
  /** Raw text for the rewritten terminal line. @default - process.stderr.write */
  write?(text: string): void;
  /** stderr is a terminal: draw a bar and rewrite one line (escape codes only then). */
  readonly interactive: boolean;
  /** Colour the bar; off when NO_COLOR is set (https://no-color.org) or stderr is not a terminal. */
  readonly color?: boolean;
  /** The terminal's width: the rewritten line is cut to fit, since a wrapped line cannot be rewritten. @default 120 */
  readonly columns?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

/** Whether a terminal may be coloured: NO_COLOR set to anything but "" turns colour off. */
export function colorAllowed(interactive: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  return interactive && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

/**
 * Draws snapshots: on a terminal one line rewritten in place with a bar; otherwise plain lines, at most one
 * every LOG_INTERVAL_MS, plus every change of phase and the end of the upload and of the scan (so a log
 * shows each step).
 */
export function createProgressRenderer(sink: ProgressSink) {
  const now = sink.now ?? Date.now;
  const write = sink.write ?? ((text: string) => void process.stderr.write(text));
  let lastPrinted = -Infinity;
  let lastStep = '';
  let drawn = false;
  return {
    render(snapshot: LiveSnapshot): void {
      const lines = describe(snapshot);
      const finished =
        snapshot.plan?.complete === true ||
        (snapshot.upload !== undefined && snapshot.upload.loaded >= snapshot.upload.total);
      const key = `${snapshot.phase}:${finished}:${snapshot.queue?.reason ?? ''}`;
      // A pause or resume is a step too: a log shows it at once.
      const step = `${key}:${snapshot.live?.paused ?? ''}`;
      if (sink.interactive) {
        const room = Math.max(10, (sink.columns ?? 120) - BAR_WIDTH - 2);
        const line = lines.replace('\n', '; '); // one line, rewritten in place
        write(`\r${bar(fraction(snapshot), sink.color === true)} ${line.slice(0, room)}\x1b[K`);
        drawn = true;
      } else if (step !== lastStep || now() - lastPrinted >= LOG_INTERVAL_MS) {
        sink.err(lines);
        lastPrinted = now();
      }
      lastStep = step;
    },
    /** Ends the rewritten line so what follows starts on its own. */
    done(): void {
      if (drawn) write('\n');
      drawn = false;
    },
  };
}

/**
 * The plain line for a snapshot; `local`'s lines from before this view are kept word for word. A snapshot with
 * live settings gets a second line for them.
 */
export function describe(s: LiveSnapshot): string {
  return s.live ? `${progressLine(s)}\n${describeLive(s.live)}` : progressLine(s);
}

/** What the lanes follow now: `live: 8 lanes, at most 1500 items/s`, or `live: paused, ...`. */
export function describeLive(live: LiveSettings): string {
  const rate = live.maxWriteRate > 0 ? `at most ${live.maxWriteRate} items/s` : 'uncapped';
  // The lanes' own count, reported with each lease renewal: it moves every 5 s, per import (cli and AWS alike).
  const rows = live.rows === undefined ? '' : `, ${live.rows} rows so far`;
  if (live.paused) return `live: paused, ${live.lanes} lanes holding their checkpoints (${rate} on resume)${rows}`;
  return `live: ${live.lanes} lanes, ${rate}${rows}`;
}

function progressLine(s: ProgressSnapshot): string {
  switch (s.phase) {
    case 'uploading':
      return `uploading: ${percent(s.upload?.loaded ?? 0, s.upload?.total ?? 0)}% of ${s.upload?.total ?? 0} bytes`;
    case 'queued':
      return `queued: ${s.queue?.reason ?? 'waiting for lanes'}, asking again in ${s.queue?.waitSeconds} s`;
    case 'planning':
      return `planning: ${s.plan?.chunks ?? 0} chunks of ${s.plan?.size ?? 0} bytes${s.plan?.complete ? '' : ' so far'}`;
    case 'mirroring': {
      const m = s.mirror ?? { step: '', done: 0, total: 0, keys: 0 };
      const unit = m.step === 'scanning table' ? 'segments' : 'parts';
      return `mirroring: ${m.step} ${m.done}/${m.total} ${unit}, ${m.keys} keys`;
    }
    default: {
      const chunks = s.chunks ?? { done: 0, total: 0 };
      const failed = chunks.failed ? `, ${chunks.failed} failed` : '';
      const rows = s.rows ?? { rows: 0, rejected: 0 };
      const rate = s.rate ? `, ${Math.round(s.rate)} rows/s` : '';
      const eta =
        s.etaSeconds !== undefined && s.etaSeconds !== null && s.phase === 'importing'
          ? `, ETA ${duration(s.etaSeconds)}`
          : '';
      return `${s.phase}: ${chunks.done}/${chunks.total} chunks${failed}, ${rows.rows} rows, ${rows.rejected} rejected${rate}${eta}`;
    }
  }
}

/** How far along the current phase is, 0 to 1: bytes uploaded, the plan, then rows (or chunks) imported. */
function fraction(s: ProgressSnapshot): number {
  if (s.phase === 'uploading') return ratio(s.upload?.loaded ?? 0, s.upload?.total ?? 0);
  if (s.phase === 'planning') return s.plan?.complete ? 1 : 0;
  if (s.phase === 'queued') return 0;
  if (s.phase === 'mirroring') return ratio(s.mirror?.done ?? 0, s.mirror?.total ?? 0);
  if (s.phase === 'summarizing') return 1;
  const rows = s.rows?.rows ?? 0;
  if (s.rate && s.etaSeconds !== null && s.etaSeconds !== undefined) return ratio(rows, rows + s.rate * s.etaSeconds);
  return ratio(s.chunks?.done ?? 0, s.chunks?.total ?? 0);
}

function bar(done: number, color: boolean): string {
  const filled = Math.round(done * BAR_WIDTH);
  const body = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  return color ? `\x1b[36m${body}\x1b[0m` : body;
}

function ratio(part: number, whole: number): number {
  return whole > 0 ? Math.min(1, Math.max(0, part / whole)) : 1;
}

function percent(part: number, whole: number): number {
  return Math.round(100 * ratio(part, whole));
}

/** 42 s, 3m05s, 2h07m: short and sortable by eye. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
