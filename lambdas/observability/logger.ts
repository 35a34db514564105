type Level = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** Structured JSON logs, one line each, with the keys that identify the work (bucket, key, chunk...). */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(base: Record<string, unknown> = {}, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  const threshold = LEVELS[level as Level] ?? LEVELS.info;
  const write = (lvl: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < threshold) return;
    process.stdout.write(
      `${JSON.stringify({ level: lvl, time: new Date().toISOString(), message, ...base, ...fields })}\n`,
    );
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
