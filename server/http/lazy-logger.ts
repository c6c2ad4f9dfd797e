/**
 * Request loggers made on first use. Fastify builds a child logger per request, and ours (pino with
 * redaction and serializers) costs tens of µs to build — while most requests never log a line at
 * the configured level. The child is built when a line at an enabled level is written.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** pino answers this; a logger that cannot (none configured) is asked every time. */
const enabled = (logger: FastifyBaseLogger, level: string): boolean => {
  const ask = (logger as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
  return ask ? ask.call(logger, level) : true;
};

class LazyChild {
  private made: FastifyBaseLogger | null = null;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: ChildLoggerOptions,
  ) {}
  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }
  get level(): string {
    return this.made?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  private write(level: Level, args: unknown[]): void {
    if (this.made === null && !enabled(this.parent, level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
  isLevelEnabled(level: string): boolean {
    return enabled(this.made ?? this.parent, level);
  }
  child(bindings: Bindings, opts?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, opts);
  }
}

/** Fastify's childLoggerFactory: the request's logger, built when first written at an enabled level. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChild(logger, bindings, opts) as unknown as FastifyBaseLogger;
}
