/**
 * Prints, after a run, how many tests each project executed (passed, failed, skipped) and its
 * files' summed duration: the suite's size is checked against earlier runs by these lines.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class ProjectCountsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = new Map<string, { files: number; passed: number; failed: number; skipped: number; ms: number }>();
    for (const module of modules) {
      const name = module.project.name || 'default';
      const row = rows.get(name) ?? { files: 0, passed: 0, failed: 0, skipped: 0, ms: 0 };
      row.files += 1;
      row.ms += module.diagnostic().duration;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') row.passed += 1;
        else if (state === 'failed') row.failed += 1;
        else row.skipped += 1;
      }
      rows.set(name, row);
    }
    const lines = [...rows].map(
      ([name, r]) =>
        `  ${name.padEnd(14)} ${String(r.files).padStart(4)} files ${String(r.passed + r.failed + r.skipped).padStart(5)} tests` +
        ` (${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped), ${(r.ms / 1000).toFixed(0)} s in files`,
    );
    console.log(`\nTests per project:\n${lines.join('\n')}`);
  }
}
