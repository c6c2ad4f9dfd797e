import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { sources } from '../helpers/import-graph';

// The server logs through the gateway context's logger (pino: structured, credentials redacted);
// only the entry point writes to the console, before a gateway (and so a logger) exists or after it failed.
const SERVER = resolve('server');
const ENTRY = join(SERVER, 'main.ts');
const CONSOLE_CALL = /\bconsole\s*\.\s*(log|info|warn|error|debug|trace)\b/;

it('has no console calls in server/ outside the entry point', () => {
  const files = sources(SERVER).filter((file) => file !== ENTRY);
  expect(files.length).toBeGreaterThan(100);
  const calls = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, at) => (CONSOLE_CALL.test(line) ? [`${relative(SERVER, file)}:${at + 1}: ${line.trim()}`] : [])),
  );
  expect(calls).toEqual([]);
});
