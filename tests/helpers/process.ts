/** Runs the gateway as a separate process (as an operator would), for multi-process tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface GatewayProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Generous: a 2-core machine runs several test files beside each start. */
const START_TIMEOUT_MS = 60_000;

/**
 * The built bundle (tests/helpers/server-bundle.ts keeps it current in a test run); without one, the
 * sources through tsx, which compiles them at each start (seconds of CPU).
 */
export const GATEWAY_COMMAND = existsSync('dist/server/main.js')
  ? ['--enable-source-maps', 'dist/server/main.js']
  : ['--import', 'tsx', 'server/main.ts'];

export function spawnGateway(env: Record<string, string>): Promise<GatewayProcess> {
  const child = spawn(process.execPath, GATEWAY_COMMAND, {
    // Stand-in upstreams listen on loopback: channels may reach it unless a test's env says otherwise.
    env: {
      ALLOW_PRIVATE_UPSTREAMS: 'true',
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      CONSOLE_DIR: '',
      PASSWORD_HASH_COST: '4',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /gateway listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          child,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited with ${code}:\n${output}`));
    });
  });
}
