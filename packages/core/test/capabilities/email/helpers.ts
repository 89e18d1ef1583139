/**
 * An e-mail provider that records what it would send, and a client that walks a link through the
 * confirm page, for core's own e-mail flow tests (no SMTP: that is in the providers package).
 */
import type { AuthConfig, EmailConfig, EmailProviderSendVerificationRequestParams } from "../../../src/index.js"
import { Client, config } from "../../helpers/harness.js"
import { memoryAdapter, type MemoryAdapter } from "../../helpers/memory-adapter.js"

export interface Outbox {
  sent: EmailProviderSendVerificationRequestParams[]
  /** Set to make the next sends throw this. */
  failWith?: unknown
}

export function emailProvider(outbox: Outbox, over: Partial<EmailConfig> = {}): EmailConfig {
  return {
    id: "email",
    name: "Email",
    type: "email",
    async sendVerificationRequest(params) {
      if (outbox.failWith !== undefined) throw outbox.failWith
      outbox.sent.push(params)
    },
    ...over,
  }
}

export interface EmailSetup {
  client: Client
  adapter: MemoryAdapter
  outbox: Outbox
  config: AuthConfig
}

export function emailSetup(over: Partial<AuthConfig> = {}, provider: Partial<EmailConfig> = {}, adapter: MemoryAdapter = memoryAdapter()): EmailSetup {
  const outbox: Outbox = { sent: [] }
  const cfg = config({ adapter, providers: [emailProvider(outbox, provider)], ...over })
  return { client: new Client(cfg), adapter, outbox, config: cfg }
}

/** POST /auth/signin/email with `email` (and a fresh CSRF token). */
export function requestLink(client: Client, email: string, extra: Record<string, string> = {}, init = {}): Promise<Response> {
  return client.post("/auth/signin/email", { email, ...extra }, init)
}

/** The hidden inputs of the confirm page's form. */
export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = decode(m[2]!)
  return fields
}

function decode(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#96;/g, "`").replace(/&amp;/g, "&")
}

/**
 * Opens `link` (GET, the confirm page) and submits its form (POST). A link the page already refuses
 * (used, unknown, expired: a redirect to the error page) has no form: `done` is that answer.
 */
export async function followLink(client: Client, link: string): Promise<{ page: Response; done: Response }> {
  const url = new URL(link)
  const page = await client.request(url.pathname + url.search)
  if (page.status === 302) return { page, done: page }
  const fields = formFields(await page.clone().text())
  const done = await client.request(url.pathname, { method: "POST", form: fields })
  return { page, done }
}
