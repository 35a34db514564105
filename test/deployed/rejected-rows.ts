import { parse } from 'csv-parse/sync';
import { getText, listKeys } from './aws.js';

/** The rows of every rejects file under `folder` (report.json aside), by line. */
export async function rejectedRows(bucket: string, folder: string): Promise<Array<Record<string, string>>> {
  const keys = (await listKeys(bucket, folder)).filter((key) => key.endsWith('.csv'));
  const files = await Promise.all(keys.map((key) => getText(bucket, key)));
  const rows = files.flatMap((text) => parse(text, { columns: true }) as Array<Record<string, string>>);
  return rows.sort((a, b) => Number(a.line) - Number(b.line));
}
