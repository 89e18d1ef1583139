import { Auth } from "/work/main/packages/core/dist/index.js"
const [mode, n = "60000"] = process.argv.slice(2)
const secret = "bench-secret-bench-secret-bench-secret-0123"
const origin = "http://localhost:3000"
const user = { id: "clx9d2k3j0000qz8l4b7g2h1m", name: "Ada Lovelace", email: "ada.lovelace@example.com", image: "https://avatars.example.com/u/1?v=4" }
const authorize = async (c: any) => (c.username === "ada" && c.password === "analytical" ? { ...user } : null)
const quiet = { error() {}, warn() {}, debug() {} }
const config = { providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {}, password: {} }, authorize }], secret, trustHost: true, basePath: "/auth", logger: quiet, ...(mode === "on" ? {} : { rateLimit: false }) }
const handler = (request: Request) => (Auth as any)(request, config, { clientAddress: "203.0.113.7" })
const csrf = await handler(new Request(`${origin}/auth/csrf`))
const { csrfToken } = await csrf.json()
const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
const signIn = () => handler(new Request(`${origin}/auth/callback/credentials`, { method: "POST", headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, username: "ada", password: "analytical", callbackUrl: "/" }) }))
for (let i = 0; i < 5000; i++) await signIn()
const t = process.cpuUsage()
for (let i = 0; i < Number(n); i++) await signIn()
const u = process.cpuUsage(t)
console.log(mode, ((u.user + u.system) / Number(n)).toFixed(2), "us cpu/sign-in")
