/**
 * encode, decode and getToken of a typical session payload, for @authlib/jwt (its Node entry, the
 * node:crypto fast path), @auth/core/jwt and the node:crypto floor, with the same secret and salt.
 * All three read the same tokens, so decode and getToken measure the same work: 1,024 distinct
 * tokens in turn, more than `@authlib/jwt` remembers as opened (at most 512, `src/opened.ts`), so
 * every call decrypts. One more row decodes the same token again and again, as a browser's cookie
 * comes back: what remembering it saves. The package's WebCrypto entry (what edge runtimes load)
 * is measured beside them for encode and decode.
 */
import * as authjs from "@auth/core/jwt"
import * as ours from "@authlib/jwt"
// The default (non-node) entry; Node resolves the package name to the fast path.
import * as oursWeb from "../packages/jwt/dist/index.js"
import type { BenchModule } from "./lib-bench.js"
import { createFloor } from "./lib-floor.js"
import { fmt, measure, printFigures } from "./lib-measure.js"
import type { Figures } from "./lib-measure.js"

const secret = "bench-secret-bench-secret-bench-secret-0123"
const salt = "authlib.session-token"
const cookieName = salt

/** What a JWT session carries: the default session fields plus a role and a provider. */
const payload = {
  name: "Ada Lovelace",
  email: "ada.lovelace@example.com",
  picture: "https://avatars.example.com/u/1234567?v=4",
  sub: "clx9d2k3j0000qz8l4b7g2h1m",
  role: "admin",
  provider: "github",
}

/** Fails the run when the three do not read each other's tokens: a floor must be the same format. */
async function checkSameFormat(floor: ReturnType<typeof createFloor>): Promise<string> {
  const token = await ours.encode({ token: payload, secret, salt })
  const fromFloor = await floor.encode(payload)
  const fromAuthjs = await authjs.encode({ token: payload, secret, salt })
  for (const t of [token, fromFloor, fromAuthjs]) {
    const decoded = [
      await ours.decode({ token: t, secret, salt }),
      await oursWeb.decode({ token: t, secret, salt }),
      await authjs.decode({ token: t, secret, salt }),
      await floor.decode(t),
    ]
    if (!decoded.every((d) => d?.sub === payload.sub)) throw new Error("bench: implementations disagree on the wire format")
  }
  return token
}

/** Tokens decoded in turn: twice what `@authlib/jwt` remembers, so none is found again. */
const DISTINCT = 1024

/** A function answering `items` in turn, one per call. */
function inTurn<T>(items: readonly T[]): () => T {
  let i = 0
  return () => items[i++ % items.length]!
}

function tasks(floor: ReturnType<typeof createFloor>, token: string, tokens: readonly string[]) {
  const cookies = tokens.map((t) => new Headers({ cookie: `theme=dark; csrf=abc123; ${cookieName}=${t}; locale=en` }))
  const requests = cookies.map((headers) => new Request("http://localhost:3000/api/session", { headers }))
  const [ourToken, floorToken, authjsToken, webToken] = [inTurn(tokens), inTurn(tokens), inTurn(tokens), inTurn(tokens)]
  const [ourReq, floorHeaders, authjsReq] = [inTurn(requests), inTurn(cookies), inTurn(requests)]
  return {
    "encode @authlib/jwt": () => ours.encode({ token: payload, secret, salt }),
    "encode floor": () => floor.encode(payload),
    "encode @auth/core": () => authjs.encode({ token: payload, secret, salt }),
    "decode @authlib/jwt": () => ours.decode({ token: ourToken(), secret, salt }),
    "decode floor": () => floor.decode(floorToken()),
    "decode @auth/core": () => authjs.decode({ token: authjsToken(), secret, salt }),
    "decode @authlib/jwt, the same token again": () => ours.decode({ token, secret, salt }),
    "encode @authlib/jwt web entry": () => oursWeb.encode({ token: payload, secret, salt }),
    "decode @authlib/jwt web entry": () => oursWeb.decode({ token: webToken(), secret, salt }),
    "getToken @authlib/jwt": () => ours.getToken({ req: ourReq(), secret, secureCookie: false }),
    "getToken floor": () => floor.getToken(floorHeaders(), cookieName),
    "getToken @auth/core": () => authjs.getToken({ req: authjsReq(), secret, secureCookie: false, cookieName }),
  }
}

/** Time ratios per operation, on the median kept round's p50 (typical call) and mean (with GC). */
export interface JwtRatios {
  op: string
  /** Our time / the floor's: 1 is the floor, the target is <= 1.3. */
  oursOverFloor: { p50: number; mean: number }
  /** @auth/core time / ours: how many times faster we are. */
  authjsOverOurs: { p50: number; mean: number }
}

function ratios(figures: Map<string, Figures>): JwtRatios[] {
  return ["encode", "decode", "getToken"].map((op) => {
    const f = (who: string) => figures.get(`${op} ${who}`)!
    const [ours, floor, authjs] = [f("@authlib/jwt"), f("floor"), f("@auth/core")]
    return {
      op,
      oursOverFloor: { p50: ours.p50 / floor.p50, mean: ours.mean / floor.mean },
      authjsOverOurs: { p50: authjs.p50 / ours.p50, mean: authjs.mean / ours.mean },
    }
  })
}

/** The WebCrypto entry against @auth/core: what an edge runtime gains. */
function printWebRatios(figures: Map<string, Figures>): void {
  const rows = ["encode", "decode"].map((op) => {
    const web = figures.get(`${op} @authlib/jwt web entry`)!
    const authjsFigures = figures.get(`${op} @auth/core`)!
    return { op, "@auth/core / web entry, p50 (mean)": `${fmt(authjsFigures.p50 / web.p50, 1)} (${fmt(authjsFigures.mean / web.mean, 1)})` }
  })
  console.log("\nWebCrypto entry (edge runtimes) against @auth/core")
  console.table(rows)
}

function printRatios(all: JwtRatios[]): void {
  console.log("\nRatios of time per operation (p50 | mean, median kept round)")
  console.table(
    all.map((r) => ({
      op: r.op,
      "ours / floor (target <= 1.3)": `${fmt(r.oursOverFloor.p50, 2)} | ${fmt(r.oursOverFloor.mean, 2)}`,
      "floor / ours": `${fmt(1 / r.oursOverFloor.p50, 2)} | ${fmt(1 / r.oursOverFloor.mean, 2)}`,
      "@auth/core / ours": `${fmt(r.authjsOverOurs.p50, 1)} | ${fmt(r.authjsOverOurs.mean, 1)}`,
    })),
  )
  const missed = all.filter((r) => r.op !== "getToken" && r.oursOverFloor.p50 > 1.3)
  console.log(missed.length ? `TARGET MISSED (p50): ${missed.map((r) => r.op).join(", ")}` : "targets met: encode and decode p50 within 1.3x of the floor")
}

const jwt: BenchModule = {
  name: "jwt",
  async run(options) {
    const floor = createFloor(secret, salt)
    const token = await checkSameFormat(floor)
    console.log(`token: ${token.length} characters, payload ${JSON.stringify(payload).length} bytes before claims`)
    const tokens: string[] = []
    for (let i = 0; i < DISTINCT; i++) tokens.push(await ours.encode({ token: payload, secret, salt }))
    const figures = await measure(tasks(floor, token, tokens), options)
    printFigures("@authlib/jwt vs @auth/core/jwt vs node:crypto floor (latencies in microseconds)", figures)
    printRatios(ratios(figures))
    printWebRatios(figures)
    const again = figures.get("decode @authlib/jwt, the same token again")!
    const fresh = figures.get("decode @authlib/jwt")!
    console.log(`\nThe same token decoded again (remembered as opened) / a token not decoded lately: p50 ${fmt(again.p50 / fresh.p50, 2)} (mean ${fmt(again.mean / fresh.mean, 2)})`)
  },
}

export default jwt
