/**
 * Runs one in-process request of the core bench many times, for a CPU profile of where node's time
 * goes (not part of `pnpm bench`):
 *
 *   cd bench && taskset -c 0 node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx core-profile.ts credentials 40000
 *
 * Operation `credentials` (sign-in) or `session` (GET /session); a third argument picks `ours`
 * (default limits), `marked` (default limits, a browser that sends its device mark back: sign-in
 * only), `unlimited` (`rateLimit: false`) or `floor`.
 */
import { encode } from "@authlib/jwt"
import { createCoreFloor, createOurs, deviceMark, fixture, get, signIn } from "./core.js"
import { createFloor } from "./lib-floor.js"

const [operation = "credentials", times = "20000", which = "ours"] = process.argv.slice(2)
const secret = "bench-secret-bench-secret-bench-secret-0123"
const payload = { name: "Ada Lovelace", email: "ada.lovelace@example.com", picture: "https://avatars.example.com/u/1?v=4", sub: "clx9d2k3j0000qz8l4b7g2h1m" }
const f = which === "floor"
  ? await fixture(createCoreFloor(), "floor", await createFloor(secret, "floor.session-token").encode(payload))
  : await fixture(createOurs(which === "unlimited" ? false : undefined), "authlib", await encode({ token: payload, secret, salt: "authlib.session-token" }))
const op = operation === "session" ? get(f, "/auth/session", true) : signIn(f, which === "marked" ? await deviceMark(f) : "")
const n = Number(times)
for (let i = 0; i < Math.min(n, 2000); i++) await op()
const cpu = process.cpuUsage()
const started = performance.now()
for (let i = 0; i < n; i++) await op()
const used = process.cpuUsage(cpu)
console.log(`${which} ${operation}: ${((performance.now() - started) * 1000 / n).toFixed(1)} us per call, CPU ${((used.user + used.system) / n).toFixed(1)} us`)
