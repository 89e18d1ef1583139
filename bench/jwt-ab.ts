/**
 * `decode` of two builds of `@authlib/jwt` in one process (not part of `pnpm bench`): CPU time per
 * call in paired rounds (each build first every other round, the first two rounds dropped), for
 * 1,024 distinct tokens in turn (more than `decode` remembers: every call decrypts) and for one
 * token decoded again and again (remembered). Prints medians and the paired ratio B / A.
 *
 *   cp -r packages/jwt/dist /tmp/jwt-before/dist && cp packages/jwt/package.json /tmp/jwt-before/
 *   ln -s "$PWD/packages/jwt/node_modules" /tmp/jwt-before/node_modules
 *   cd bench && taskset -c 0 node --import tsx jwt-ab.ts /tmp/jwt-before/dist/index.node.js ../packages/jwt/dist/index.node.js 20 4096
 */
import { pathToFileURL } from "node:url"
const [a, b, rounds = "20", per = "4096"] = process.argv.slice(2)
if (!a || !b) throw new Error("usage: jwt-ab.ts <build A: dist/index.node.js> <build B: dist/index.node.js> [rounds] [calls per batch]")
const A = await import(pathToFileURL(a!).href), B = await import(pathToFileURL(b!).href)
const secret = "bench-secret-bench-secret-bench-secret-0123", salt = "authlib.session-token"
const payload = { name: "Ada Lovelace", email: "ada.lovelace@example.com", picture: "https://avatars.example.com/u/1?v=4", sub: "clx9d2k3j0000qz8l4b7g2h1m", role: "admin", provider: "github" }
const tokens: string[] = []
for (let i = 0; i < 1024; i++) tokens.push(await A.encode({ token: { ...payload, n: i }, secret, salt }))
type Decode = (params: { token: string; secret: string; salt: string }) => Promise<unknown>

/** CPU microseconds per `decode` over one batch. */
async function batch(dec: Decode, same: boolean) {
  const t = process.cpuUsage()
  for (let i = 0; i < Number(per); i++) await dec({ token: same ? tokens[0] : tokens[i % 1024], secret, salt })
  const u = process.cpuUsage(t); return (u.user + u.system) / Number(per)
}
for (const same of [false, true]) {
  const ra: number[] = [], rb: number[] = [], ratio: number[] = []
  for (let r = 0; r < Number(rounds); r++) {
    const order = r % 2 === 0 ? [A, B] : [B, A]
    const x = await batch(order[0].decode, same), y = await batch(order[1].decode, same)
    const ta = order[0] === A ? x : y, tb = order[0] === A ? y : x
    if (r > 1) { ra.push(ta); rb.push(tb); ratio.push(tb / ta) }
  }
  const med = (v: number[]) => v.sort((p, q) => p - q)[Math.floor(v.length / 2)]!
  console.log(same ? "same token" : "1,024 tokens in turn", "A", med(ra).toFixed(2), "B", med(rb).toFixed(2), "B/A", med(ratio).toFixed(3))
}
