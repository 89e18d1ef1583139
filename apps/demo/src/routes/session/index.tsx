import { component$ } from "@builder.io/qwik"
import { routeLoader$, type DocumentHead } from "@builder.io/qwik-city"
import { useSession } from "../plugin@auth"

/**
 * What stands behind the session, read on the server with core's `getToken` (the cookie name
 * with its `__Secure-` prefix on https, chunks joined): under `jwt` the encrypted cookie's payload;
 * under `database` the session record, found by the SHA-256 of the cookie's token (the database
 * never holds the token itself).
 */
export const useBehind = routeLoader$(async (ev) => {
  const { demoAuthConfig } = await import("../../server/auth-config")
  const { getToken } = await import("@authlib/core")
  const config = await demoAuthConfig(ev.env)
  const strategy = config.session?.strategy ?? "jwt"
  // Core names the cookie after the app's origin: WEBAUTH_URL when set, else this request's URL.
  const secureCookie = new URL(ev.env.get("WEBAUTH_URL") || ev.url.href).protocol === "https:"
  if (strategy === "jwt") {
    const token = await getToken({ req: ev.request, secret: config.secret, secureCookie })
    return { strategy, detail: token ? (JSON.parse(JSON.stringify(token)) as Record<string, unknown>) : null }
  }
  const raw = await getToken({ req: ev.request, raw: true, secureCookie })
  if (!raw) return { strategy, detail: null }
  const { createHash } = await import("node:crypto")
  const found = await config.adapter?.getSessionAndUser?.(createHash("sha256").update(raw).digest("base64url"))
  const record = found ? { ...found.session, sessionToken: `${found.session.sessionToken.slice(0, 12)}… (SHA-256 of the cookie)` } : null
  return { strategy, detail: record ? (JSON.parse(JSON.stringify(record)) as Record<string, unknown>) : null }
})

export default component$(() => {
  const session = useSession()
  const behind = useBehind()
  const jwt = behind.value.strategy === "jwt"
  return (
    <section aria-labelledby="session-title">
      <h1 id="session-title">Session</h1>
      <p class="lead">What the app knows about you, and what it keeps to know it.</p>
      <h2>Session (useSession)</h2>
      <pre class="code" aria-label="Session JSON">{JSON.stringify(session.value, null, 2)}</pre>
      <h2>{jwt ? "Encrypted token, decrypted on the server" : "Session record in the database"}</h2>
      <p class="muted">
        {jwt
          ? "Strategy jwt: the cookie holds a JWE (A256CBC-HS512); this is its payload."
          : "Strategy database: the cookie holds a random token; the database keeps only its SHA-256."}
      </p>
      <pre class="code" aria-label={jwt ? "Token payload" : "Session record"}>{JSON.stringify(behind.value.detail, null, 2)}</pre>
    </section>
  )
})

export const head: DocumentHead = { title: "Session" }
