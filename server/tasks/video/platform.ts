/**
 * What a video vendor is to the gateway: how to submit one generation, ask after it and fetch its
 * file, each as a plain HTTP call the shared code makes (through the relay's keep-alive pool). Each
 * vendor lives in its provider folder (server/relay/providers/<name>/video.ts) and is listed once by
 * channel type in platforms.ts.
 */
import type { Channel } from '../../db/types.js';

/** One generation as the client asked for it (the OpenAI Videos API's fields). */
export interface VideoRequest {
  model: string;
  prompt: string;
  /** Whole seconds. */
  seconds: number;
  /** `WIDTHxHEIGHT`. */
  size: string;
  image?: { data: Buffer; mime: string };
}

export interface PlatformCall {
  method?: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** JSON (sent as such) or a multipart form; absent for GET. */
  body?: unknown;
  /**
   * For a vendor answering the finished file inline: the JSON key whose string value is the file in
   * base64 (inline-file.ts). Dropped when a state is read, decoded when the file is served.
   */
  inline?: string;
}

/** A call built at once, or after an asynchronous step (a vendor's OAuth token). */
export type Pending<T> = T | Promise<T>;

export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/** What the vendor says of a task, in the OpenAI Videos API's terms. */
export interface VideoState {
  status: VideoStatus;
  /** 0–100. */
  progress: number;
  /** The length the vendor reports having made, when it says. */
  seconds?: number;
  error?: string;
  /** Where the finished file is, when the vendor names it in its answer (kept server-side only). */
  file?: string;
}

export interface VideoPlatform {
  /** Shown in logs and the console. */
  name: string;
  submit(channel: Channel, req: VideoRequest): Pending<PlatformCall>;
  /**
   * The vendor's task id in an answer to `submit` (of `req`), or the vendor's own refusal message
   * (with the HTTP status it amounts to, for a vendor that refuses inside a 200).
   */
  submitted(status: number, answer: unknown, req: VideoRequest): { id: string } | { error: string; status?: number };
  query(channel: Channel, id: string): Pending<PlatformCall>;
  /** The state in an answer to `query`; null for an answer it cannot read. */
  state(status: number, answer: unknown): VideoState | null;
  /**
   * For a vendor whose file address must be asked for when wanted (it expires): that call, and the
   * address in its answer (fetched without the channel's credentials).
   */
  locate?: {
    call(channel: Channel, id: string, file: string | undefined): PlatformCall;
    address(status: number, answer: unknown): string | null;
  };
  /** For a vendor that keeps files until told: the call deleting one (made when its owner deletes the video). */
  remove?(channel: Channel, id: string): PlatformCall;
  /** The call that streams the finished file (`file` is the address `locate` found, when it did). */
  content(channel: Channel, id: string, file: string | undefined): Pending<PlatformCall>;
}

/** The channel's base URL without trailing slashes, or the vendor's own when none is set. */
export function baseOf(channel: Channel, fallback: string): string {
  return (channel.base_url || fallback).replace(/\/+$/, '');
}

export function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function text(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** A finished file's own address (signed by the vendor): fetched without the channel's credentials. */
export function signedFile(file: string | undefined): PlatformCall {
  if (!file || !/^https?:\/\//.test(file)) throw new Error('no file address recorded');
  return { method: 'GET', url: file, headers: {} };
}
