/**
 * The Demo IdP's own login and consent pages (oidc-provider leaves these to the deployer). They
 * run under /interaction/:uid on the IdP's origin, read the pending request with
 * `interactionDetails` and answer it with `interactionFinished`.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type Provider from "oidc-provider"
import { IDP_ACCOUNTS, IDP_PASSWORD } from "../lib/demo-login"
import { escape } from "./escape"

/** A page of a stand-in IdP (this one's, and the Demo SAML IdP's with its own `brand`). */
export function page(title: string, body: string, brand = "Demo IdP"): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · ${escape(brand)}</title><style>
body{margin:0;font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh}
main{background:#1e293b;border:1px solid #334155;border-radius:14px;padding:2rem;width:min(22rem,90vw)}
.brand{color:#fbbf24;font-weight:700;letter-spacing:.04em;margin:0 0 1rem}h1{margin:0 0 .5rem;font-size:1.5rem}
label{display:block;font-weight:600;margin:.9rem 0 .3rem}input{width:100%;box-sizing:border-box;padding:.6rem;border-radius:8px;border:1px solid #475569;background:#0f172a;color:inherit;font:inherit}
button{width:100%;margin-top:1.2rem;padding:.65rem;border:0;border-radius:8px;background:#fbbf24;color:#0f172a;font:inherit;font-weight:700;cursor:pointer}
button.secondary{background:transparent;color:#cbd5e1;border:1px solid #475569;margin-top:.6rem}p{color:#cbd5e1}.alert{color:#fca5a5}ul{color:#cbd5e1}code{color:#fbbf24}
</style></head><body><main><p class="brand">${escape(brand)}</p>${body}</main></body></html>`
}

function loginPage(uid: string, error?: string): string {
  return page("Sign in", `<h1>Sign in</h1><p>to continue to <strong>authlib demo</strong></p>
${error ? `<p class="alert" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/interaction/${escape(uid)}/login">
<label for="login">User name</label><input id="login" name="login" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<p>Accounts: ${Object.keys(IDP_ACCOUNTS).map((a) => `<code>${a}</code>`).join(", ")}; password <code>${IDP_PASSWORD}</code>.</p>`)
}

function consentPage(uid: string, account: string, scopes: string[]): string {
  return page("Allow access", `<h1>Allow access?</h1><p><strong>authlib demo</strong> asks to know, about <strong>${escape(account)}</strong>:</p>
<ul>${scopes.map((s) => `<li>${escape(s)}</li>`).join("")}</ul>
<form method="post" action="/interaction/${escape(uid)}/confirm"><button type="submit">Allow</button></form>
<form method="post" action="/interaction/${escape(uid)}/abort"><button type="submit" class="secondary">Cancel</button></form>`)
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  let body = ""
  for await (const chunk of req) {
    body += String(chunk)
    if (body.length > 10_000) break
  }
  return new URLSearchParams(body)
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-frame-options": "DENY" })
  res.end(html)
}

interface Details {
  uid: string
  grantId?: string
  params: Record<string, string>
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } }
  session?: { accountId?: string }
}

async function grantConsent(provider: Provider, details: Details): Promise<string> {
  const accountId = details.session?.accountId ?? ""
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: details.params.client_id })
  const missing = details.prompt.details
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "))
  return grant.save()
}

async function post(provider: Provider, req: IncomingMessage, res: ServerResponse, action: string, details: Details): Promise<void> {
  if (action === "login") {
    const form = await formOf(req)
    const login = (form.get("login") ?? "").trim().toLowerCase()
    if (!IDP_ACCOUNTS[login] || form.get("password") !== IDP_PASSWORD) return send(res, 401, loginPage(details.uid, "Unknown user name or wrong password."))
    return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false })
  }
  if (action === "confirm") return provider.interactionFinished(req, res, { consent: { grantId: await grantConsent(provider, details) } })
  return provider.interactionFinished(req, res, { error: "access_denied", error_description: "The user cancelled" }, { mergeWithLastSubmission: false })
}

/** Handles /interaction/:uid[/login|/confirm|/abort]; answers false for any other path. */
export async function handleInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const match = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(new URL(req.url ?? "/", "http://idp").pathname)
  if (!match) return false
  const details = (await provider.interactionDetails(req, res)) as Details
  if (req.method === "POST" && match[2]) await post(provider, req, res, match[2], details)
  else if (details.prompt.name === "login") send(res, 200, loginPage(details.uid))
  else send(res, 200, consentPage(details.uid, details.session?.accountId ?? "", (details.params.scope ?? "").split(" ").filter(Boolean)))
  return true
}
