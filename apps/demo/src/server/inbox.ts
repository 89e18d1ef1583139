/**
 * The demo's mail server: smtp-server on 127.0.0.1 (a free port unless `DEMO_SMTP_PORT` is set)
 * that keeps the last messages in memory, parsed with mailparser, for the inbox page. Nothing
 * leaves the machine. STARTTLS is off: smtp-server's built-in certificate has expired, and this
 * server only ever talks to the app beside it on loopback.
 */
import { simpleParser } from "mailparser"
import { randomUUID } from "node:crypto"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface InboxMessage {
  id: string
  from: string
  to: string
  subject: string
  text: string
  html: string | null
  receivedAt: string
}

const KEEP = 50
const messages: InboxMessage[] = []
let started: Promise<{ port: number }> | undefined

async function receive(stream: NodeJS.ReadableStream): Promise<void> {
  const mail = await simpleParser(stream as never)
  messages.unshift({
    id: randomUUID(),
    from: mail.from?.text ?? "",
    to: [mail.to ?? []].flat().map((a) => a.text).join(", "),
    subject: mail.subject ?? "(no subject)",
    text: mail.text ?? "",
    html: typeof mail.html === "string" ? mail.html : null,
    receivedAt: (mail.date ?? new Date()).toISOString(),
  })
  messages.length = Math.min(messages.length, KEEP)
}

function listen(port: number): Promise<{ port: number }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    banner: "authlib demo inbox",
    logger: false,
    onData(stream, _session, callback) {
      receive(stream).then(() => callback(), callback)
    },
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => resolve({ port: (server.server.address() as AddressInfo).port }))
  })
}

/** Starts the mail server once per process; resolves its port. */
export function startInbox(env: { get(name: string): string | undefined }): Promise<{ port: number }> {
  started ??= listen(Number(env.get("DEMO_SMTP_PORT") ?? 0)).catch((err: unknown) => {
    started = undefined
    throw err
  })
  return started
}

/** Received messages, newest first. */
export function inboxMessages(): readonly InboxMessage[] {
  return messages
}
