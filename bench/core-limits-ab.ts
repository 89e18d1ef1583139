/**
 * The rate limits' cost in a credentials sign-in, for two builds of `@authlib/core` in one process
 * (not part of `pnpm bench`): per build, a sign-in with the default limits (a new browser), one
 * from a browser that sends its device mark back, and one with `rateLimit: false`, as `pnpm bench
 * core` signs in, in rounds of CPU time per sign-in (`lib-cpu-ab.ts`).
 *
 *   cp -r packages/core/dist /tmp/core-before/dist   # the build to compare with, before the change
 *   ln -s "$PWD/packages/core/node_modules" /tmp/core-before/node_modules
 *   cd bench && taskset -c 0 node --import tsx core-limits-ab.ts /tmp/core-before/dist/index.js ../packages/core/dist/index.js 24 1500
 */
import { pathToFileURL } from "node:url"
import { resolve } from "node:path"
import { cpuRounds } from "./lib-cpu-ab.js"

type Auth = (request: Request, config: object, options: { clientAddress: string }) => Promise<Response>

const [a, b, rounds = "24", perBatch = "1500"] = process.argv.slice(2)
if (!a || !b) throw new Error("usage: core-limits-ab.ts <build A: dist/index.js> <build B: dist/index.js> [rounds] [sign-ins per batch]")

const secret = "bench-secret-bench-secret-bench-secret-0123"
const origin = "http://localhost:3000"
const user = { id: "clx9d2k3j0000qz8l4b7g2h1m", name: "Ada Lovelace", email: "ada.lovelace@example.com", image: "https://avatars.example.com/u/1?v=4" }
const authorize = async (c: Partial<Record<string, unknown>>) => (c.username === "ada" && c.password === "analytical" ? { ...user } : null)
const quiet = { error() {}, warn() {}, debug() {} }

/** A sign-in of `auth` as core.ts makes it; `marked`: the browser sends back the device mark its first sign-in got. */
async function signInOf(auth: Auth, limits: boolean, marked: boolean): Promise<() => Promise<Response>> {
  const config = {
    providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {}, password: {} }, authorize }],
    secret, trustHost: true, basePath: "/auth", logger: quiet,
    ...(limits ? {} : { rateLimit: false }),
  }
  const handler = (request: Request) => auth(request, config, { clientAddress: "203.0.113.7" })
  const csrf = await handler(new Request(`${origin}/auth/csrf`))
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
  const signIn = (cookie: string) => () =>
    handler(new Request(`${origin}/auth/callback/credentials`, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "analytical", callbackUrl: "/" }),
    }))
  const first = await signIn(csrfCookie)()
  if (first.status !== 302 || first.headers.get("location") !== `${origin}/`) throw new Error("core-limits-ab: the sign-in does not work")
  if (!marked) return signIn(csrfCookie)
  const mark = first.headers.getSetCookie().find((c) => c.startsWith("authlib.device-mark="))
  if (!mark) throw new Error("core-limits-ab: the sign-in handed out no device mark")
  return signIn(`${csrfCookie}; ${mark.split(";")[0]}`)
}

const builds = { A: (await import(pathToFileURL(resolve(a)).href)).Auth as Auth, B: (await import(pathToFileURL(resolve(b)).href)).Auth as Auth }
const tasks: Record<string, () => Promise<Response>> = {}
for (const [name, auth] of Object.entries(builds)) {
  tasks[`${name} on`] = await signInOf(auth, true, false)
  tasks[`${name} mark`] = await signInOf(auth, true, true)
  tasks[`${name} off`] = await signInOf(auth, false, false)
}

const { summary, ratio } = await cpuRounds(tasks, Number(rounds), Number(perBatch))
console.log(summary())
console.log(`A: on/off ${ratio("A on", "A off")}, mark/off ${ratio("A mark", "A off")}`)
console.log(`B: on/off ${ratio("B on", "B off")}, mark/off ${ratio("B mark", "B off")}`)
console.log(`B/A: on ${ratio("B on", "A on")}, mark ${ratio("B mark", "A mark")}, off ${ratio("B off", "A off")}`)
