// Multipart uploads: the one file part of a request spooled to a private temp folder with a
// size cap, handed to a callback, and removed afterwards whatever happens (answer, error,
// client gone). Every upload route goes through withUploadedFile.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { BadRequestError, PayloadTooLargeError } from './errors';

export interface SpooledFile {
  /** Absolute path of the spooled copy. */
  file: string;
  bytes: number;
  /** The name the client gave the file (may be empty). */
  filename: string;
}

export interface UploadRule {
  /** Multipart field that carries the file. */
  field: string;
  maxBytes: number;
  /** Accepted file names, e.g. /\.xlsx$/i (an empty name is accepted: the content is checked). */
  accept: RegExp;
  messages: { noFile: string; wrongType: string; tooLarge: string };
}

/** Spools the request's file part, runs `use` on it, then removes the spool folder. */
export async function withUploadedFile<T>(
  request: FastifyRequest,
  rule: UploadRule,
  use: (upload: SpooledFile) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw new BadRequestError(rule.messages.noFile);
  let part: Awaited<ReturnType<typeof request.file>>;
  try {
    part = await request.file();
  } catch (err) {
    throw new BadRequestError(rule.messages.noFile, err instanceof Error ? err.message : undefined);
  }
  if (!part || part.fieldname !== rule.field) {
    part?.file.resume();
    throw new BadRequestError(rule.messages.noFile);
  }
  const filename = part.filename ?? '';
  if (filename && !rule.accept.test(filename)) {
    part.file.resume();
    throw new BadRequestError(rule.messages.wrongType, `Archivo recibido: ${filename.slice(0, 120)}`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'upload-'));
  try {
    const file = path.join(dir, 'upload.bin');
    const bytes = await spool(part.file, file, rule);
    return await use({ file, bytes, filename });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function spool(source: NodeJS.ReadableStream, file: string, rule: UploadRule): Promise<number> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > rule.maxBytes) cb(new PayloadTooLargeError(rule.messages.tooLarge));
      else cb(null, chunk);
    },
  });
  await pipeline(source, counter, createWriteStream(file));
  // @fastify/multipart truncates at its own limit instead of failing.
  if ((source as { truncated?: boolean }).truncated) throw new PayloadTooLargeError(rule.messages.tooLarge);
  return bytes;
}
