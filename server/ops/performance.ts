/**
 * The family console's performance panel (root), answered with what this process has: its memory
 * (V8 heap and resident size), the disk under the data directory, and the performance_setting.*
 * options as saved. This gateway keeps no disk cache of request bodies and writes its logs to
 * standard output, so the cache figures are zero, and the disk-cache and log-file actions say so
 * instead of pretending to clear anything. Numbers Node does not have (Go's GC count, goroutines)
 * are null.
 */
import { existsSync, statfsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { requireRoot } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';

function diskSpace(path: string) {
  try {
    const s = statfsSync(path);
    const total = s.blocks * s.bsize;
    const free = s.bavail * s.bsize;
    const used = total - s.bfree * s.bsize;
    return { total, free, used, used_percent: total > 0 ? Math.round((used / total) * 10000) / 100 : null };
  } catch {
    return { total: null, free: null, used: null, used_percent: null };
  }
}

export default async function performanceRoutes(app: FastifyInstance): Promise<void> {
  const o = app.ctx.options;
  const audit = (action: string) => ({ subject: 'option', action, target: () => ['performance'] }) as const;

  app.get('/api/performance/stats', { onRequest: requireRoot }, async () => {
    const memory = process.memoryUsage();
    const path = o.string('performance_setting.disk_cache_path');
    return ok({
      cache_stats: {
        active_disk_files: 0,
        current_disk_usage_bytes: 0,
        current_memory_usage_bytes: 0,
        disk_cache_hits: 0,
        memory_cache_hits: 0,
      },
      memory_stats: { alloc: memory.heapUsed, total_alloc: memory.heapTotal, sys: memory.rss, num_gc: null, num_goroutine: null },
      disk_cache_info: { path, exists: path !== '' && existsSync(path), file_count: 0, total_size: 0 },
      disk_space_info: diskSpace(path && existsSync(path) ? path : process.cwd()),
      config: {
        disk_cache_enabled: o.bool('performance_setting.disk_cache_enabled'),
        disk_cache_threshold_mb: o.number('performance_setting.disk_cache_threshold_mb'),
        disk_cache_max_size_mb: o.number('performance_setting.disk_cache_max_size_mb'),
        disk_cache_path: path,
        is_running_in_container: existsSync('/.dockerenv'),
        monitor_enabled: o.bool('performance_setting.monitor_enabled'),
        monitor_cpu_threshold: o.number('performance_setting.monitor_cpu_threshold'),
        monitor_memory_threshold: o.number('performance_setting.monitor_memory_threshold'),
        monitor_disk_threshold: o.number('performance_setting.monitor_disk_threshold'),
      },
    });
  });

  app.delete('/api/performance/disk_cache', { onRequest: requireRoot, config: { audit: audit('clear_disk_cache') } }, async () =>
    ok({ cleared_files: 0 }, '本网关不使用磁盘缓存，无需清理'),
  );
  app.post('/api/performance/reset_stats', { onRequest: requireRoot, config: { audit: audit('reset_stats') } }, async () =>
    ok(undefined, '本网关没有可重置的缓存统计'),
  );
  app.post('/api/performance/gc', { onRequest: requireRoot, config: { audit: audit('gc') } }, async () => {
    if (typeof globalThis.gc !== 'function') throw fail('performance.gc_unavailable');
    globalThis.gc();
    return ok(undefined, '垃圾回收已执行');
  });
  app.get('/api/performance/logs', { onRequest: requireRoot }, async () =>
    ok({ enabled: false, log_dir: '', file_count: 0, total_size: 0, oldest_time: null, newest_time: null, files: [] }),
  );
  app.delete('/api/performance/logs', { onRequest: requireRoot, config: { audit: audit('clean_logs') } }, async () => {
    throw fail('performance.no_log_files');
  });
}
