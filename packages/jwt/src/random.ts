/**
 * Random bytes for IVs and tokens, from a pool that `crypto.getRandomValues` fills 4 KiB at a time.
 * On Node 20 a `getRandomValues` or `randomFillSync` call costs a few microseconds whatever its
 * size (argument checks and a crypto job around the OpenSSL call): measured in place, the 16-byte
 * IV alone was about 9% of a credentials sign-in (bench/README.md, sixth round of issue 38).
 *
 * Every byte is handed out once. A refill takes a new buffer rather than writing over the old one,
 * and each answer is a copy, so nothing handed out changes later or keeps the pool alive.
 * Node's own `crypto.randomUUID` keeps such a batch too. As with it, a memory image frozen after
 * its first random call and started many times (a VM snapshot) would repeat the batch: start from
 * a snapshot taken before any sign-in.
 */

/** Bytes drawn from the platform per refill (at most 65,536 per `getRandomValues` call). */
const POOL_BYTES = 4096
/** Longer requests go to the platform directly: they are rare and would empty the pool. */
const POOLED_MAX = 256

let pool = new Uint8Array(0)
let used = 0

/**
 * `length` cryptographically strong random bytes (`crypto.getRandomValues`), in a fresh array,
 * drawn from a pool so that a short request does not pay for a platform call each time.
 */
export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  if (!Number.isInteger(length) || length < 0) throw new RangeError("randomBytes: length must be a non-negative integer")
  if (length > POOLED_MAX) return crypto.getRandomValues(new Uint8Array(length))
  if (used + length > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES))
    used = 0
  }
  const out = pool.slice(used, used + length)
  used += length
  return out
}
