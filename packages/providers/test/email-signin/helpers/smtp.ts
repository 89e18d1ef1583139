/**
 * A real SMTP server on 127.0.0.1 (smtp-server) that parses every message it accepts with
 * mailparser. STARTTLS is off: the certificate smtp-server ships with has expired.
 */
import type { AddressInfo } from "node:net"
import { createServer } from "node:net"
import { simpleParser, type ParsedMail } from "mailparser"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[]
  mail: ParsedMail
}

export interface Inbox {
  url: string
  received: ReceivedMail[]
  /** When set, RCPT TO answers this SMTP error (code and text). */
  rejectRecipients?: { code: number; text: string }
  close(): Promise<void>
}

function smtpError(text: string, responseCode: number): Error {
  return Object.assign(new Error(text), { responseCode })
}

/** Starts the server on a free loopback port. */
export async function startInbox(): Promise<Inbox> {
  const inbox: Inbox = { url: "", received: [], close: async () => {} }
  const server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      const reject = inbox.rejectRecipients
      callback(reject ? smtpError(reject.text, reject.code) : undefined)
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address)
      simpleParser(stream).then((mail) => (inbox.received.push({ to, mail }), callback()), callback)
    },
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  inbox.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`
  inbox.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  return inbox
}

/** An SMTP URL on a loopback port where nothing listens (connection refused). */
export async function deadSmtpUrl(): Promise<string> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return `smtp://127.0.0.1:${port}`
}

/** The sign-in link of a received mail, from its text part; checks the HTML part agrees. */
export function linkOf(received: ReceivedMail): string {
  const text = received.mail.text ?? ""
  const link = /https?:\/\/\S+\/callback\/\S+/.exec(text)?.[0]
  if (!link) throw new Error(`no sign-in link in the mail text: ${text}`)
  const hrefs = [...String(received.mail.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"))
  if (!hrefs.includes(link)) throw new Error(`the HTML part does not link to ${link}`)
  return link
}
