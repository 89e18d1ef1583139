/**
 * The relying party of a passkey provider: RP ID, name and expected origin(s). They come from the
 * provider's `relyingParty` (or Auth.js's `relayingParty`) and otherwise from the configured app
 * URL, never from `Host` or `X-Forwarded-*`: an RP ID taken from a forged header would mint and
 * accept credentials for another site. Checked at start-up: the RP ID is a registrable domain (not
 * a public suffix such as `com`, `co.uk` or `github.io`, not an IP address) or `localhost`, and
 * each origin is on it.
 */
import type { AuthRequest } from "../../kernel/types/http.js"
import type { WebAuthnConfig, WebAuthnRelyingParty } from "../../kernel/types/providers.js"
import { Configuration } from "../../kernel/errors/errors.js"
import { runUserCode } from "../../kernel/user-code/run.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"

const DNS_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/
const IPV4 = /^\d+(?:\.\d+){3}$/

function invalid(provider: WebAuthnConfig, message: string, code: "RP_ID_INVALID" | "RP_ID_PUBLIC_SUFFIX" = "RP_ID_INVALID"): Configuration {
  return new Configuration(`Passkey provider "${provider.id}": ${message}`, { code, cause: { provider: provider.id } })
}

/** Why `rp` cannot work, or `undefined` when it can. */
export function relyingPartyProblem(provider: WebAuthnConfig, rp: WebAuthnRelyingParty): Configuration | undefined {
  const id = rp.id
  if (typeof id !== "string" || !(id === "localhost" || (DNS_NAME.test(id) && id.includes(".") && !IPV4.test(id))))
    return invalid(provider, `the RP ID "${String(id)}" must be a domain name (or localhost): set "url" (WEBAUTH_URL) to the site's address, or relyingParty.id`)
  if (id !== "localhost" && provider.isPublicSuffix?.(id))
    return invalid(provider, `the RP ID "${id}" is a public suffix: every site under it could use its passkeys; use the site's own domain`, "RP_ID_PUBLIC_SUFFIX")
  const origins = Array.isArray(rp.origin) ? rp.origin : [rp.origin]
  for (const origin of origins) {
    let host = ""
    try {
      const url = new URL(origin)
      host = url.origin === origin ? url.hostname : ""
    } catch {
      host = ""
    }
    if (host !== id && !host.endsWith(`.${id}`))
      return invalid(provider, `the origin "${String(origin)}" must be an origin (scheme://host[:port]) on the RP ID "${id}"`)
  }
  return undefined
}

/** The relying party from the provider's fields and the app URL; undefined parts stay unset. */
export function staticRelyingParty(provider: WebAuthnConfig, appUrl: URL | undefined): Partial<WebAuthnRelyingParty> {
  const own = provider.relyingParty ?? provider.relayingParty ?? {}
  const id = own.id ?? appUrl?.hostname
  return {
    ...(id !== undefined ? { id } : {}),
    name: own.name ?? id ?? provider.name,
    ...(own.origin ?? appUrl ? { origin: own.origin ?? appUrl!.origin } : {}),
  }
}

/** Static relying parties, checked once per provider (they were checked at start-up too). */
const checked = new WeakMap<WebAuthnConfig, WebAuthnRelyingParty>()

/** The relying party of this request: `getRelyingParty` when the provider has it, else the static one. */
export async function relyingPartyOf(req: AuthRequest, ctx: FlowContext<WebAuthnConfig>): Promise<WebAuthnRelyingParty> {
  const { provider } = ctx
  const known = checked.get(provider)
  if (known) return known
  const base = staticRelyingParty(provider, ctx.config.appUrl)
  const hook = provider.getRelyingParty
  const own = hook ? await runUserCode("provider", `${provider.id}.getRelyingParty`, () => hook({ url: req.url }, req.request)) : {}
  const rp = { ...base, ...own } as WebAuthnRelyingParty
  const problem = relyingPartyProblem(provider, rp)
  if (problem) throw problem
  if (!hook) checked.set(provider, rp)
  return rp
}
