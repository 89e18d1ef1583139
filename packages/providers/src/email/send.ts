/**
 * The default `sendVerificationRequest` of the Nodemailer provider. nodemailer is an optional peer
 * dependency: it is imported the first time a mail is sent, never when the module loads, so apps
 * without e-mail sign-in do not need it installed.
 */
import { EmailSignInError, type EmailProviderSendVerificationRequestParams } from "@authlib/core"
import { html, text } from "./template.js"

/** The part of a nodemailer `SentMessageInfo` the provider reads. */
interface SentMessageInfo {
  accepted?: unknown[]
  rejected?: unknown[]
  pending?: unknown[]
  response?: string
}
/** The part of a nodemailer transporter the provider uses. */
interface MailTransport {
  sendMail(message: Record<string, unknown>): Promise<SentMessageInfo>
}
interface NodemailerModule {
  createTransport(options: unknown): MailTransport
}
/** What nodemailer puts on a failed send. */
interface SmtpErrorFacts extends Error {
  code?: string
  response?: string
  responseCode?: number
  command?: string
}

/**
 * Imports nodemailer. The specifier is a variable so bundlers leave the optional peer alone.
 * @internal exported for tests
 */
export async function loadNodemailer(specifier = "nodemailer"): Promise<NodemailerModule> {
  try {
    const mod = (await import(specifier)) as Partial<NodemailerModule> & { default?: NodemailerModule }
    const loaded = typeof mod.createTransport === "function" ? (mod as NodemailerModule) : mod.default
    if (typeof loaded?.createTransport !== "function") throw new TypeError(`"${specifier}" has no createTransport export`)
    return loaded
  } catch (err) {
    throw new EmailSignInError(`The Nodemailer provider needs the "nodemailer" package: install it (pnpm add nodemailer)`, { code: "NODEMAILER_MISSING", cause: { package: specifier, err: err as Error } })
  }
}

const byUrl = new Map<string, Promise<MailTransport>>()
const byOptions = new WeakMap<object, Promise<MailTransport>>()

/** One transporter per `server` value (string or options object), created on first use. */
function transportFor(server: unknown): Promise<MailTransport> {
  const cached = typeof server === "string" ? byUrl.get(server) : byOptions.get(server as object)
  if (cached) return cached
  const created = loadNodemailer().then((nodemailer) => nodemailer.createTransport(server))
  if (typeof server === "string") byUrl.set(server, created)
  else byOptions.set(server as object, created)
  created.catch(() => (typeof server === "string" ? byUrl.delete(server) : byOptions.delete(server as object)))
  return created
}

function sendFailed(err: SmtpErrorFacts, provider: string): EmailSignInError {
  const rejected = typeof err.responseCode === "number" && err.responseCode >= 400
  const detail = err.response ?? err.message
  return new EmailSignInError(`Sending the sign-in e-mail failed: ${detail}`, {
    code: rejected ? "SMTP_REJECTED" : "SMTP_SEND_FAILED",
    cause: { provider, response: err.response, responseCode: err.responseCode, command: err.command, smtpCode: err.code, err },
  })
}

/** The sent message was not accepted for every recipient. */
function checkAccepted(info: SentMessageInfo, provider: string): void {
  const failed = [...(info.rejected ?? []), ...(info.pending ?? [])]
  if (failed.length === 0) return
  throw new EmailSignInError(`The SMTP server did not accept the sign-in e-mail: ${info.response ?? "recipient rejected"}`, {
    code: "SMTP_REJECTED",
    cause: { provider, response: info.response, rejected: info.rejected ?? [], pending: info.pending ?? [] },
  })
}

/**
 * Sends the default sign-in e-mail (text and HTML, see `html()` and `text()`) through the
 * provider's `server` with nodemailer. Throws {@link EmailSignInError} when nodemailer is missing or
 * the SMTP server fails or refuses; the SMTP reply is in `cause.response`.
 */
export async function sendVerificationRequest(params: EmailProviderSendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider, theme } = params
  if (provider.server === undefined || provider.server === null) {
    throw new EmailSignInError(`The "${provider.id}" provider has no "server" to send mail through`, { code: "SMTP_SEND_FAILED", cause: { provider: provider.id } })
  }
  const { host } = new URL(url)
  const transport = await transportFor(provider.server)
  let info: SentMessageInfo
  try {
    info = await transport.sendMail({
      to: { name: "", address: identifier },
      from: provider.from,
      subject: `Sign in to ${host}`,
      text: text({ url, host }),
      html: html({ url, host, theme }),
    })
  } catch (err) {
    throw sendFailed(err as SmtpErrorFacts, provider.id)
  }
  checkAccepted(info, provider.id)
}
