#!/usr/bin/env node
// npm bin entry: registers tsx so the TypeScript CLI runs as is, without a build step.
import { register } from 'tsx/esm/api';

register();
await import('./s3-ddb-import.ts');
