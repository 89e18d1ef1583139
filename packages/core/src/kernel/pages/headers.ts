/**
 * Response headers of every built-in page: no framing, and a Content-Security-Policy that allows
 * only what the page itself embeds. The policy is read from the rendered document, so it cannot
 * drift from the markup: the hash of its one `<style>` element (and of its one `<script>`, the
 * sign-in page's passkey script), the `src` of its images and its icon, the `action` of its forms and the
 * passkey options URL the script fetches (`data-passkey-options`). Reading our own output is sound
 * because pages are built only through `html` (see `html.ts`): every interpolated value is
 * escaped, so each `<style>`, `<script>`, `<img` and `<form` in the text is ours, and each
 * attribute value is double-quoted without a `"` inside.
 */
import { sha256 } from "@noble/hashes/sha2.js"

/**
 * Named stand-in for "this page's forms may end anywhere": a form that hands the browser to an
 * OAuth provider. Chrome and Safari check every redirect a form submission leads to against
 * `form-action`, and the provider's hops (its login, a federated IdP, back to our callback) are
 * known only to the provider; a list would break the sign-in, so such a page sends no
 * `form-action` at all.
 */
export const ANY_FORM_TARGET: unique symbol = Symbol("ANY_FORM_TARGET")

/** URLs a page's form submissions may be redirected to, beside the forms' own actions. */
export type FormTargets = readonly string[] | typeof ANY_FORM_TARGET

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#96": "`" }

/** Reverses `escapeHtml` for one attribute value. */
function unescapeAttribute(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_m, name: string) => ENTITIES[name] ?? "")
}

function attributeValues(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((m) => unescapeAttribute(m[1]!))
}

const STYLE = /<style>([\s\S]*?)<\/style>/
const SCRIPT = /<script>([\s\S]*?)<\/script>/
const FETCHED = /<form\b[^>]*?\sdata-passkey-options="([^"]*)"/g
const IMAGE_SOURCES = /<img\b[^>]*?\ssrc="([^"]*)"/g
const FORM_ACTIONS = /<form\b[^>]*?\saction="([^"]*)"/g
const ICONS = /<link rel="icon" href="([^"]*)"/g

/**
 * What a CSP source may be built from. The URL parser keeps `;`, `,`, `"` and `*` in a host
 * (`https://a;b.example`), and the origin can come from `X-Forwarded-Host`: a host outside this
 * shape is left out (its image or form is then blocked), so no value can add a directive.
 */
const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/
const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i

/**
 * The CSP source that allows `url`: a relative URL is the page's own origin (`'self'`), a
 * protocol-relative one its host (matched with the page's scheme, as the browser resolves it),
 * an absolute http(s) URL its origin. Anything else (the inert `about:blank`) allows nothing.
 */
export function cspSource(url: string): string | undefined {
  try {
    if (url.startsWith("//")) {
      const { host } = new URL(`https:${url}`)
      return HOST.test(host) ? host : undefined
    }
    if (!HAS_SCHEME.test(url)) return "'self'"
    const { protocol, host, origin } = new URL(url)
    return (protocol === "https:" || protocol === "http:") && HOST.test(host) ? origin : undefined
  } catch {
    return undefined
  }
}

function sources(urls: readonly string[], always: string[] = []): string[] {
  const found = urls.map(cspSource).filter((s): s is string => s !== undefined)
  return [...new Set([...always, ...found])]
}

/** Hashes by inline text; a config renders a handful of stylesheets (and one script), the cap bounds odd ones. */
const inlineHashes = new Map<string, string>()
const MAX_CACHED_INLINE = 32
const encoder = new TextEncoder()

/** `'sha256-<base64>'` of the exact `<style>` or `<script>` text (UTF-8), computed once per distinct text. */
export function inlineHash(css: string): string {
  const cached = inlineHashes.get(css)
  if (cached !== undefined) return cached
  const hash = `'sha256-${btoa(String.fromCharCode(...sha256(encoder.encode(css))))}'`
  if (inlineHashes.size >= MAX_CACHED_INLINE) inlineHashes.delete(inlineHashes.keys().next().value!)
  inlineHashes.set(css, hash)
  return hash
}

function formAction(actions: string[], targets: FormTargets): string | undefined {
  if (actions.length === 0) return "form-action 'none'"
  if (targets === ANY_FORM_TARGET) return undefined
  return `form-action ${sources([...actions, ...targets], ["'self'"]).join(" ")}`
}

/** The Content-Security-Policy of a rendered page. */
export function pageCsp(html: string, targets: FormTargets = []): string {
  const style = html.match(STYLE)
  const script = html.match(SCRIPT)
  const icons = attributeValues(html, ICONS)
  // The inline icon (layout's `data:` URL, the only `data:` the pages write) needs `data:`; a logo its origin.
  const images = sources([...attributeValues(html, IMAGE_SOURCES), ...icons], icons.some((href) => href.startsWith("data:image/")) ? ["data:"] : [])
  const fetched = sources(attributeValues(html, FETCHED))
  return [
    "default-src 'none'",
    style ? `style-src ${inlineHash(style[1]!)}` : undefined,
    script ? `script-src ${inlineHash(script[1]!)}` : undefined,
    fetched.length > 0 ? `connect-src ${fetched.join(" ")}` : undefined,
    images.length > 0 ? `img-src ${images.join(" ")}` : undefined,
    formAction(attributeValues(html, FORM_ACTIONS), targets),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].filter(Boolean).join("; ")
}

/**
 * The headers every built-in page is sent with. `X-Frame-Options` stands in for `frame-ancestors`
 * in browsers without CSP 2: a framed button is a click away from a login CSRF. The referrer stays
 * on this site, since page URLs carry tokens and callback URLs (a magic link's token, for one);
 * `same-origin` rather than `no-referrer` so the pages' own form POSTs still carry a real
 * `Origin` (under `no-referrer` it is `null`, and a browser without fetch metadata would then be
 * refused by the CSRF check).
 *
 * @param html The complete page, as it is sent.
 * @param targets Where the page's form submissions may be redirected (the callback URL, custom
 *   pages), or `ANY_FORM_TARGET`; the forms' own actions are read from `html`.
 */
export function pageHeaders(html: string, targets: FormTargets = []): Record<string, string> {
  return {
    "content-security-policy": pageCsp(html, targets),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
  }
}

/**
 * Where a form on a page may be redirected after its POST, beside its own action: the callback
 * URL (already passed through the `redirect` callback) and the custom pages (`newUser` after a
 * first sign-in, `error` and `signIn` on failure, `verifyRequest` after an e-mail is sent),
 * resolved against the application origin as the routes resolve them.
 */
export function formTargets(origin: string, pages: Readonly<Record<string, string | undefined>>, callbackUrl: string): string[] {
  const targets = [callbackUrl]
  for (const page of Object.values(pages)) {
    if (typeof page !== "string") continue
    try {
      targets.push(new URL(page, origin).href)
    } catch {
      // An unparsable custom page is refused at start-up; here it simply allows nothing.
    }
  }
  return targets
}
