import { deflateSync, gzipSync } from 'node:zlib';

/**
 * The REST API's `minimumCompressionSize`, shared by the stack (infra/constructs/api.ts) and the
 * local gateway: an answer of this many bytes or more is compressed for a client that accepts it.
 */
export const MIN_COMPRESSION_BYTES = 1024;

/** The content codings API Gateway compresses with, besides `identity`. */
type Coding = 'gzip' | 'deflate';

/**
 * The coding a client's `Accept-Encoding` asks for: the one of gzip and deflate it weighs most
 * (gzip on a tie), none when it names neither or weighs them 0. Without the header API Gateway
 * compresses nothing, and a bare `*` does not name a coding it supports.
 */
const chosenCoding = (acceptEncoding: string | undefined): Coding | undefined => {
  let chosen: { coding: Coding; q: number } | undefined;
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim());
    const coding = name.toLowerCase();
    if (coding !== 'gzip' && coding !== 'deflate') continue;
    const q = params.map((p) => /^q=([0-9.]+)$/i.exec(p)).find((m) => m !== null);
    const weight = q == null ? 1 : Number(q[1]);
    if (!(weight > 0)) continue;
    if (chosen === undefined || weight > chosen.q || (weight === chosen.q && coding === 'gzip'))
      chosen = { coding, q: weight };
  }
  return chosen?.coding;
};

/**
 * An answer's body as API Gateway sends it on a stage with compression enabled: compressed when
 * the request's `Accept-Encoding` names a supported coding, the answer has no `Content-Encoding`
 * of its own and its body is at least {@link MIN_COMPRESSION_BYTES}
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-receive-response-with-compressed-payload.html).
 * The documented compressed answer adds `Content-Encoding` and nothing else.
 *
 * @example
 * ```ts
 * compressAnswer(Buffer.from(json), 'gzip, deflate, br', false); // { body: <gzip>, encoding: 'gzip' }
 * ```
 */
export const compressAnswer = (
  body: Buffer,
  acceptEncoding: string | undefined,
  alreadyEncoded: boolean,
): { body: Buffer; encoding?: Coding } => {
  const coding = chosenCoding(acceptEncoding);
  if (coding === undefined || alreadyEncoded || body.length < MIN_COMPRESSION_BYTES) return { body };
  return { body: coding === 'gzip' ? gzipSync(body) : deflateSync(body), encoding: coding };
};
